/**
 * Brings an already loaded bench database up to the current schema and derived data that
 * needs no reload: pending migrations, the whole-catalogue facet totals, VACUUM (ANALYZE).
 *
 *   node --conditions=catalogue-source --import tsx bench/catalogue/refresh.ts <database-url>
 */
import { connectPostgres, migrate } from '@catalogue/postgres';
import { recomputeFacetTotals } from '../../packages/postgres/src/writer/facet-totals.js';
import { vacuumCatalogue } from '../../packages/postgres/src/writer/vacuum.js';

const url = process.argv[2];
if (!url) throw new Error('usage: refresh.ts <database-url>');
const sql = connectPostgres(url, { max: 1, statementTimeoutMs: 0 });
try {
  const applied = await migrate(sql);
  await recomputeFacetTotals(sql);
  await vacuumCatalogue(sql);
  process.stderr.write(`refreshed: migrations applied ${applied.join(', ') || 'none'}; facet totals recomputed; vacuumed\n`);
} finally {
  await sql.end({ timeout: 5 });
}
