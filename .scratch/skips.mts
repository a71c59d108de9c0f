import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import postgres from 'postgres';
import { DumpScanner } from '/work/wt/i13/packages/importer/src/discogs/dump-scanner.ts';
import { StoredHashes } from '/work/wt/i13/packages/importer/src/discogs/known-hashes.ts';
const sql = postgres('postgres://postgres@127.0.0.1:5432/i13_s');
for (const k of ['artists','labels','masters','releases']) {
  const id = k === 'masters' ? 'master_id' : k === 'releases' ? 'release_id' : 'discogs_id';
  const known = new StoredHashes(sql as never, k, id);
  const parsed: unknown[] = [];
  const s = new DumpScanner(k, undefined, () => known, ({ row }) => parsed.push((row as any)[id]));
  for await (const c of createReadStream(`data/discogs/discogs_20200806_${k}.xml.gz`).pipe(createGunzip())) { s.push(c); while (s.scan() !== 'need-input') await known.loadMore(); }
  s.end();
  console.log(k, s.records, s.unchanged, parsed.slice(0, 10));
}
await sql.end();
