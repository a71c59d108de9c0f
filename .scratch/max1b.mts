import { connectPostgres } from '/work/wt/i13/packages/postgres/src/index.ts';
import { rebuildSearchDocuments } from '/work/wt/i13/packages/postgres/src/writer/search-documents.ts';
import { rebuildByCopy } from '/work/wt/i13/packages/postgres/src/bulk/table-swap.ts';
const sql = connectPostgres(process.argv[2], { max: 1, statementTimeoutMs: 0 });
await rebuildByCopy(sql, 'facet_state', ['singleton', 'masters'], async (write) => { console.log('filling'); await write('t\t5\n'); console.log('wrote'); const r = await sql`select 1`; console.log('read', r.length); });
console.log('simple ok');
await rebuildSearchDocuments(sql, 'copy', 5000);
console.log('search ok');
await sql.end();
