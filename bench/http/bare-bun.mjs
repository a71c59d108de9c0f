// The bare baseline for Bun: Bun.serve answering a fixed JSON body, nothing else.
import { readFileSync } from 'node:fs';

const body = readFileSync(process.env.BENCH_BODY_FILE, 'utf8');
Bun.serve({
  port: Number(process.env.PORT),
  hostname: '127.0.0.1',
  fetch: () => new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
});
console.log('listening on', process.env.PORT);
