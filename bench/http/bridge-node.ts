/**
 * The Node host's bridge alone: createNodeServer (body cap, client IP, @hono/node-server
 * listener) around a constant handler answering the same JSON. Separates what the host costs
 * from what the service costs.
 */
import { readFileSync } from 'node:fs';
import type { Service } from '@catalogue/core';
import { createNodeServer, listen } from '../../hosts/node/src/serve.js';

const body = readFileSync(process.env.BENCH_BODY_FILE as string, 'utf8');
const constant = {
  fetch: async () => new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
  runJobs: async () => {},
} as unknown as Service;
await listen(createNodeServer(constant, { trustProxy: false }), Number(process.env.PORT), '127.0.0.1');
console.log('listening on', process.env.PORT);
