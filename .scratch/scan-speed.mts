import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { DumpScanner } from '/work/wt/i13/packages/importer/src/discogs/dump-scanner.ts';
const file = process.argv[2]; const parse = process.argv[3] !== 'noparse';
let t0 = performance.now(); let bytes = 0;
for await (const c of createReadStream(file, {highWaterMark: 1<<20}).pipe(createGunzip())) bytes += c.length;
const tg = performance.now() - t0;
t0 = performance.now(); let n = 0;
const known = parse ? undefined : { lookup: () => 'x', loadMore: async () => {} };
const s = new DumpScanner(file, undefined, () => known as never, () => { n++; });
for await (const c of createReadStream(file, {highWaterMark: 1<<20}).pipe(createGunzip())) { s.push(c); s.scan(); }
s.end();
console.log({ mb: bytes/1e6, gunzipS: tg/1000, scanS: (performance.now()-t0)/1000, rows: n, records: s.records });
