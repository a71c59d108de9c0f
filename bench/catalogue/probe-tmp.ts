import { connectPostgres, createPostgresCatalogue } from '@catalogue/postgres';
import { sampleTargets } from './targets.js';

const url = process.argv[2] as string;
const what = process.argv[3] ?? 'search';
const targets = await sampleTargets(url);
const sql = connectPostgres(url, { max: 2 });
const cat = createPostgresCatalogue(sql);
const times: Array<[number, string]> = [];
for (const qs of targets.searchQueries) {
  const p = new URLSearchParams(qs);
  const filters = { genre: [p.get('genre') as string], style: [p.get('style') as string] };
  const t0 = performance.now();
  if (what === 'search') await cat.search({ q: p.get('q'), type: 'all', filters, limit: 20, after: null }, {});
  else await cat.facets({ q: p.get('q'), facets: ['genre', 'style', 'format', 'country', 'year_from', 'label'], filters, limit: 20 }, {});
  times.push([performance.now() - t0, qs]);
}
times.sort((a, b) => b[0] - a[0]);
const ms = times.map((t) => t[0]).sort((a, b) => a - b);
console.log(
  'p50',
  ms[Math.floor(ms.length * 0.5)]?.toFixed(1),
  'p95',
  ms[Math.floor(ms.length * 0.95)]?.toFixed(1),
  'total',
  ms.reduce((a, b) => a + b, 0).toFixed(0),
);
for (const [t, q] of times.slice(0, 15)) console.log(t.toFixed(1), q);
await sql.end();
