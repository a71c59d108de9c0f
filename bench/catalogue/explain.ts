/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements each measured route runs, with the bench's own
 * sampled targets: every statement the catalogue sends for a call is captured (postgres.js
 * debug hook, exact text and parameters) and explained; of `BENCH_EXPLAIN_SAMPLES` calls per
 * route the slowest (sum of execution times) is written to explain/<route>.txt.
 *
 *   node --conditions=catalogue-source --import tsx bench/catalogue/explain.ts <database-url> [route…]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Catalogue, FacetName } from '@catalogue/core';
import { connectPostgres, createPostgresCatalogue } from '@catalogue/postgres';
import { sampleTargets, type Targets } from './targets.js';

const [url, ...wanted] = process.argv.slice(2);
if (!url) throw new Error('usage: explain.ts <database-url> [route…]');
const samples = Number(process.env.BENCH_EXPLAIN_SAMPLES ?? 10);

const captured: Array<{ query: string; params: unknown[] }> = [];
const sql = connectPostgres(url, {
  max: 1,
  postgres: { debug: (_connection, query, params) => captured.push({ query, params: params as unknown[] }) },
});
const explainer = connectPostgres(url, { max: 1 });
const catalogue = createPostgresCatalogue(sql);

const FACETS: FacetName[] = ['genre', 'style', 'format', 'country', 'year_from', 'label'];

function filtersOf(query: string) {
  const params = new URLSearchParams(query);
  return { q: params.get('q'), filters: { genre: params.getAll('genre'), style: params.getAll('style') } };
}

const ROUTES: Record<string, (targets: Targets, i: number) => (c: Catalogue) => Promise<unknown>> = {
  search: (t, i) => (c) => c.search({ ...filtersOf(t.searchQueries[i] as string), type: 'all', limit: 20, after: null }, {}),
  'search-typo': (t, i) => (c) => c.search({ ...filtersOf(t.typoQueries[i] as string), type: 'all', limit: 20, after: null }, {}),
  'search-typo-alone': (t, i) => (c) => c.search({ q: filtersOf(t.typoQueries[i] as string).q, filters: {}, type: 'all', limit: 20, after: null }, {}),
  'facets-q': (t, i) => (c) => c.facets({ ...filtersOf(t.searchQueries[i] as string), facets: FACETS, limit: 20 }, {}),
  'facets-all': () => (c) => c.facets({ q: null, filters: {}, facets: FACETS, limit: 20 }, {}),
  master: (t, i) => (c) => c.master(t.masterIds[i] as number, {}),
  'batch-500': (t, i) => (c) => c.masters(t.masterIds.slice(i * 500, i * 500 + 500), {}),
  resolve: (t, i) => (c) => c.resolve({ by: 'q', q: t.artistNames[i] as string }, {}),
  'artist-dossier': (t, i) => (c) => c.artistDossier(t.artistClusterIds[i] as number, {}),
};

/** EXPLAIN text of one statement, and its execution time in ms. */
async function explain(query: string, params: unknown[]): Promise<{ text: string; ms: number }> {
  const rows = await explainer.unsafe(`EXPLAIN (ANALYZE, BUFFERS) ${query}`, params as never[]);
  const text = rows.map((row) => (row as Record<string, string>)['QUERY PLAN']).join('\n');
  return { text, ms: Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? 0) };
}

try {
  const targets = await sampleTargets(url);
  mkdirSync(new URL('./explain/', import.meta.url), { recursive: true });
  for (const [route, callFor] of Object.entries(ROUTES)) {
    if (wanted.length > 0 && !wanted.includes(route)) continue;
    let worst: { ms: number; report: string } | null = null;
    for (let i = 0; i < samples; i++) {
      captured.length = 0;
      await callFor(targets, i)(catalogue);
      const statements = [...captured];
      let total = 0;
      const parts: string[] = [];
      for (const { query, params } of statements) {
        const { text, ms } = await explain(query, params);
        total += ms;
        parts.push(`-- statement (${ms.toFixed(3)} ms)\n${query.trim()}\n-- parameters: ${JSON.stringify(params).slice(0, 400)}\n${text}\n`);
      }
      if (!worst || total > worst.ms) worst = { ms: total, report: parts.join('\n') };
    }
    if (!worst) continue;
    const header = `# ${route}: slowest of ${samples} sampled calls, ${worst.ms.toFixed(2)} ms of execution over its statements\n# database: ${url.replace(/\/\/[^@]*@/, '//')}  at ${new Date().toISOString()}\n\n`;
    writeFileSync(new URL(`./explain/${route}.txt`, import.meta.url), header + worst.report);
    process.stderr.write(`${route}: slowest ${worst.ms.toFixed(2)} ms → explain/${route}.txt\n`);
  }
} finally {
  await sql.end({ timeout: 5 });
  await explainer.end({ timeout: 5 });
}
