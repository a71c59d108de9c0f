import { Bench } from 'tinybench';
import { sha256Hex, parseApiKey, generateApiKey } from '@catalogue/core';
import { newRequestId } from '../../packages/core/src/http/request-id.ts';
import { RequestLifetime } from '../../packages/core/src/http/deadline.ts';
const key = generateApiKey('live');
const url = 'http://bench.local/api/v1/masters/113';
const req = new Request(url, { headers: { 'x-api-key': key } });
const body = JSON.stringify({ a: 1, b: 'x'.repeat(800) });
const b = new Bench({ time: 500 });
b.add('sha256Hex', () => sha256Hex(key))
 .add('parseApiKey', () => parseApiKey(key))
 .add('new URL', () => new URL(url))
 .add('requestId', () => newRequestId())
 .add('lifetime', () => { const l = new RequestLifetime(req.signal, 15000); l.dispose(); })
 .add('new Request', () => new Request(url, { headers: { 'x-api-key': key } }))
 .add('headers.get', () => req.headers.get('x-api-key'))
 .add('Response plain', () => new Response(body, { headers: { 'content-type': 'application/json' } }))
 .add('Response + 4 set', () => { const r = new Response(body, { headers: { 'content-type': 'application/json' } }); r.headers.set('x-ratelimit-limit','1'); r.headers.set('x-ratelimit-remaining','1'); r.headers.set('x-ratelimit-reset','1'); r.headers.set('x-request-id','01ABC'); })
 .add('Response 5 headers init', () => new Response(body, { headers: { 'content-type': 'application/json', 'x-ratelimit-limit':'1','x-ratelimit-remaining':'1','x-ratelimit-reset':'1','x-request-id':'01ABC' } }))
 .add('JSON.stringify', () => JSON.stringify({ a: 1, b: 'x'.repeat(800) }));
await b.run();
console.table(b.tasks.map(t => ({ name: t.name, 'mean ns': Math.round((t.result as any).latency.mean * 1e6) })));
