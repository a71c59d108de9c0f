import postgres from 'postgres';
import { runCli } from '/work/wt/i13/packages/importer/src/cli/run-cli.ts';
import { openPostgresDatabase } from '/work/wt/i13/packages/importer/src/cli/database.ts';
import { tableChecksums } from '/work/wt/i13/packages/importer/src/test-support/table-checksums.ts';
const files = process.argv.slice(2);
const code = await runCli(['import', 'discogs', ...files], { env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/i13_legacy' }, stdout: process.stdout, stderr: process.stderr,
  openDatabase: async (url) => { const db = await openPostgresDatabase(url); delete db.bulk; return db; } });
console.log('legacy exit', code);
const a = postgres('postgres://postgres@127.0.0.1:5432/i13_legacy'); const b = postgres('postgres://postgres@127.0.0.1:5432/i13_scratch');
const ca = await tableChecksums(a), cb = await tableChecksums(b);
for (const t of Object.keys(ca)) console.log(t, ca[t].rows, cb[t].rows, ca[t].checksum === cb[t].checksum ? 'same' : 'DIFF');
// columns excluding content_hash / slug_base
for (const t of ['artists','labels','masters','releases']) {
  const q = (s) => s.unsafe(`SELECT count(*)::int n, sum(hashtextextended((to_jsonb(t) - 'content_hash' - 'slug_base')::text,0))::text c FROM ${t} t`);
  const [x] = await q(a); const [y] = await q(b); console.log('without hash', t, x.n, y.n, x.c === y.c ? 'same' : 'DIFF');
}
await a.end(); await b.end();
