import { connectPostgres, createPostgresWriter } from '/work/wt/i13/packages/postgres/src/index.ts';
const sql = connectPostgres(process.argv[2], { max: 1, statementTimeoutMs: 0 });
const t = performance.now();
await createPostgresWriter(sql, { onFinishStep: (s, n) => console.log(s, n) }).finish({ force: true });
console.log('max1 finish ok', ((performance.now() - t) / 1000).toFixed(1));
await sql.end();
