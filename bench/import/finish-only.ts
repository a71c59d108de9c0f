/**
 * Re-runs finish() (forced) on an already imported bench database (BENCH_KEEP=1), printing each
 * step's seconds and the loader's peak RSS: for working on the derived-data steps alone.
 *
 *   node --conditions=catalogue-source --import tsx bench/import/finish-only.ts <database-url>
 */
import { connectPostgres, createPostgresWriter } from '@catalogue/postgres';

const url = process.argv[2];
if (!url) throw new Error('usage: finish-only.ts <database-url>');
const sql = connectPostgres(url, { max: 4, statementTimeoutMs: 0, postgres: { connection: { jit: 'off' } } });
const startedAt = performance.now();
const writer = createPostgresWriter(sql, {
  databaseUrl: url,
  onFinishStep: (step, seconds) => process.stderr.write(`  ${step}: ${seconds.toFixed(1)} s\n`),
});
await writer.finish({ force: true });
process.stderr.write(`finish(): ${((performance.now() - startedAt) / 1000).toFixed(1)} s; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`);
await sql.end({ timeout: 5 });
