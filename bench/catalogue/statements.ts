/**
 * Where a search route's PostgreSQL time goes, over every sampled target: each call's
 * statements are captured (postgres.js debug hook), EXPLAIN (ANALYZE)'d, and grouped by the
 * statement's shape (its first words); prints per shape the calls that ran it and its planning
 * + execution time (sum, mean, max), and the calls' statement counts.
 *
 *   [BENCH_TYPO_HINT=0] node --conditions=catalogue-source --import tsx bench/catalogue/statements.ts <database-url> search|search-typo
 */
import { connectPostgres, createPostgresCatalogue, VocabularyHint } from '@catalogue/postgres';
import { sampleTargets } from './targets.js';

const [url, route = 'search-typo'] = process.argv.slice(2);
if (!url) throw new Error('usage: statements.ts <database-url> [search|search-typo]');
const captured: Array<{ query: string; params: unknown[] }> = [];
const sql = connectPostgres(url, { max: 1, postgres: { debug: (_c, query, params) => captured.push({ query, params: params as unknown[] }) } });
const explainer = connectPostgres(url, { max: 1 });
// BENCH_TYPO_HINT=0: without the process's filter of the vocabulary (catalogue/vocabulary-hint.ts).
const hintSql = connectPostgres(url, { max: 1 });
const hint = process.env.BENCH_TYPO_HINT === '0' ? undefined : new VocabularyHint(hintSql, null);
await hint?.loaded;
const catalogue = createPostgresCatalogue(sql, hint ? { vocabularyHint: hint } : {});
const targets = await sampleTargets(url);
const queries = route === 'search' ? targets.searchQueries : targets.typoQueries;
const shapes = new Map<string, { calls: number; plan: number; exec: number; max: number }>();
const perCall = new Map<number, number>();
for (const query of queries) {
  const params = new URLSearchParams(query);
  captured.length = 0;
  await catalogue.search(
    { q: params.get('q'), filters: { genre: params.getAll('genre'), style: params.getAll('style') }, type: 'all', limit: 20, after: null },
    {},
  );
  const statements = captured.filter((s) => !/^\s*(BEGIN|COMMIT|SET|SHOW)/i.test(s.query));
  perCall.set(statements.length, (perCall.get(statements.length) ?? 0) + 1);
  for (const { query: text, params: values } of statements) {
    const [row] = await explainer.unsafe(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values as never[]);
    const plan = (row as unknown as { 'QUERY PLAN': Array<{ 'Planning Time': number; 'Execution Time': number }> })['QUERY PLAN'][0] as {
      'Planning Time': number;
      'Execution Time': number;
    };
    const shape = text.replace(/\s+/g, ' ').trim().slice(0, 90);
    const entry = shapes.get(shape) ?? { calls: 0, plan: 0, exec: 0, max: 0 };
    entry.calls++;
    entry.plan += plan['Planning Time'];
    entry.exec += plan['Execution Time'];
    entry.max = Math.max(entry.max, plan['Execution Time']);
    shapes.set(shape, entry);
  }
}
console.log(
  `${route}: ${queries.length} calls; statements per call ${[...perCall]
    .sort((a, b) => a[0] - b[0])
    .map(([n, c]) => `${n}: ${c}`)
    .join(', ')}`,
);
for (const [shape, e] of [...shapes].sort((a, b) => b[1].exec + b[1].plan - (a[1].exec + a[1].plan))) {
  console.log(
    `${String(e.calls).padStart(4)} calls  plan ${(e.plan / e.calls).toFixed(3)} ms  exec ${(e.exec / e.calls).toFixed(3)} ms mean, ${e.max.toFixed(1)} max, ${(e.exec + e.plan).toFixed(0)} ms total  ${shape}`,
  );
}
await sql.end();
await explainer.end();
await hintSql.end();
