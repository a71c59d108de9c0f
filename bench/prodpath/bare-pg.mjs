// The production-path baseline: node:http (or Bun's node:http) and postgres.js doing the same
// lookup the Node host serves, with nothing else: no auth, no limits, no headers beyond the
// JSON content type. The same pool size as the host (DATABASE_POOL_MAX, default 10).
import { createServer } from 'node:http';
import postgres from 'postgres';

const sql = postgres(process.env.DATABASE_URL, { max: Number(process.env.DATABASE_POOL_MAX ?? 10), onnotice: () => {} });
const MASTER = /^\/api\/v1\/masters\/(\d+)$/;

createServer(async (req, res) => {
  const id = MASTER.exec(req.url ?? '')?.[1];
  const rows = id ? await sql`SELECT record::text AS record FROM master_records WHERE master_id = ${Number(id)}` : [];
  const body = rows[0]?.record;
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on', process.env.PORT));
