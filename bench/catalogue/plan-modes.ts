/**
 * Search and facets under PostgreSQL's plan cache modes, query by query: each query is run
 * `runs` times on a pool whose connections plan every prepared statement for its parameters
 * (`auto`, PostgreSQL's default, which custom-plans a statement at least five times) and on one
 * that reuses one generic plan (`force_generic_plan`), and the median of the last three runs of
 * each is printed beside the other. The queries are picked to stress parameter-sensitive plans:
 * the most common words, prefixes, long and rare words, every filter.
 *
 *   node --conditions=catalogue-source --import tsx bench/catalogue/plan-modes.ts <database-url>
 */
import type { Catalogue, FacetFilters, SearchType } from '@catalogue/core';
import { connectPostgres, createPostgresCatalogue } from '@catalogue/postgres';

const [url] = process.argv.slice(2);
if (!url) throw new Error('usage: plan-modes.ts <database-url>');
const runs = 8;
const modes = ['auto', 'force_generic_plan'] as const;
const catalogues = Object.fromEntries(
  modes.map((mode) => [mode, createPostgresCatalogue(connectPostgres(url, { max: 1, postgres: { connection: { plan_cache_mode: mode } } }))]),
) as Record<(typeof modes)[number], Catalogue>;

interface Case {
  q: string | null;
  type?: SearchType;
  filters?: FacetFilters;
  facets?: boolean;
}
const words = [
  'rock',
  'electronic',
  'live',
  'love',
  'the',
  'a',
  'lo',
  'mu',
  'music',
  'remix',
  'the beatles',
  'love live',
  'zzyzx',
  'aphex twin',
  'persuadr',
  'vince watsn moments',
  'electronc',
  'houes music',
  'jazz funk soul',
  'xq',
];
const filterSets: FacetFilters[] = [
  {},
  { genre: ['Rock'] },
  { style: ['House'] },
  { genre: ['Electronic'], style: ['Techno'] },
  { country: ['UK'], year_from: 1990, year_to: 1999 },
  { format: ['Vinyl'] },
  { label: ['Warp Records'] },
  { genre: ['Jazz'], style: ['Bebop'], year_from: 1950, year_to: 1960 },
];
const cases: Case[] = [];
for (const q of words) for (const filters of filterSets) cases.push({ q, filters });
for (const q of ['rock', 'love', 'the', 'persuadr', 'aphex'])
  for (const type of ['master', 'artist', 'label'] as SearchType[]) cases.push({ q, type, filters: {} });
for (const q of [null, 'rock', 'love', 'the', 'music', 'persuadr']) for (const filters of filterSets) cases.push({ q, filters, facets: true });

async function timed(catalogue: Catalogue, c: Case): Promise<number> {
  const started = performance.now();
  if (c.facets)
    await catalogue.facets({ q: c.q, facets: ['genre', 'style', 'format', 'country', 'year_from', 'label'], filters: c.filters ?? {}, limit: 20 }, {});
  else await catalogue.search({ q: c.q, type: c.type ?? 'all', filters: c.filters ?? {}, limit: 20, after: null }, {});
  return performance.now() - started;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const rows: Array<{ label: string; auto: number; generic: number }> = [];
for (const c of cases) {
  const result: Record<string, number> = {};
  for (const mode of modes) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await timed(catalogues[mode], c));
    result[mode] = median(times.slice(-3));
  }
  rows.push({
    label: `${c.facets ? 'facets' : 'search'} ${c.type ?? ''} q=${c.q} ${JSON.stringify(c.filters ?? {})}`,
    auto: result.auto as number,
    generic: result.force_generic_plan as number,
  });
}
rows.sort((a, b) => b.generic / b.auto - a.generic / a.auto);
let autoTotal = 0;
let genericTotal = 0;
for (const row of rows) {
  autoTotal += row.auto;
  genericTotal += row.generic;
}
console.log(`${rows.length} queries: auto ${autoTotal.toFixed(0)} ms, generic ${genericTotal.toFixed(0)} ms (medians summed)`);
console.log('worst 25 by generic / auto:');
for (const row of rows.slice(0, 25))
  console.log(`${(row.generic / row.auto).toFixed(2)}×  auto ${row.auto.toFixed(1)}  generic ${row.generic.toFixed(1)}  ${row.label}`);
console.log('best 10:');
for (const row of rows.slice(-10))
  console.log(`${(row.generic / row.auto).toFixed(2)}×  auto ${row.auto.toFixed(1)}  generic ${row.generic.toFixed(1)}  ${row.label}`);
process.exit(0);
