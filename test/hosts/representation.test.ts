/**
 * Compression, ETag / 304 and CORS through real hosts (docs/decisions.md §6): the Node host as
 * a process and the Lambda handler through every event kind. The answers' bytes are checked
 * as the client receives them: gzip must survive the runtime's bridge and Lambda's base64.
 */
import { gunzipSync } from 'node:zlib';
import { createServiceFromEnv } from '@catalogue/host-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpResult } from '../../hosts/lambda/src/events.js';
import { createLambdaHandler } from '../../hosts/lambda/src/serve.js';
import type { Answer } from './answer.js';
import { FIXTURE_ADMIN_TOKEN, type FixtureRequest } from './fixture.js';
import { answerOf, eventFor, HTTP_EVENT_KINDS } from './lambda-events.js';
import { type RunningHost, send, startHost } from './process-host.js';
import { demoMaster, fixtureContext } from './setup.js';

const ORIGIN = 'https://app.example';

type Send = (req: FixtureRequest) => Promise<Answer>;

function checks(label: string, sender: () => Send) {
  describe(label, () => {
    let key: string;
    beforeAll(async () => {
      key = (await fixtureContext(sender(), false)).key;
    });

    it('gzips a large answer, its bytes intact, and the plain answer is the same document', async () => {
      const plain = await sender()({ method: 'GET', path: '/api/v1/openapi.json' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      const zipped = await sender()({ method: 'GET', path: '/api/v1/openapi.json', headers: { 'accept-encoding': 'gzip, br;q=0' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toMatch(/accept-encoding/i);
      expect(zipped.body.byteLength).toBeLessThan(plain.body.byteLength / 4);
      expect(new TextDecoder().decode(gunzipSync(zipped.body))).toBe(new TextDecoder().decode(plain.body));
    });

    it('a master answers 304 to its own ETag, gzip or not, and 200 to another', async () => {
      const path = `/api/v1/masters/${demoMaster()}`;
      const first = await sender()({ method: 'GET', path, headers: { 'x-api-key': key } });
      expect(first.status).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(first.headers['cache-control']).toBe('private, max-age=3600');
      const again = await sender()({ method: 'GET', path, headers: { 'x-api-key': key, 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body.byteLength).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
      const zipped = await sender()({ method: 'GET', path, headers: { 'x-api-key': key, 'if-none-match': `W/${etag}`, 'accept-encoding': 'gzip' } });
      expect(zipped.status).toBe(304);
      const other = await sender()({ method: 'GET', path, headers: { 'x-api-key': key, 'if-none-match': '"nope", garbage' } });
      expect(other.status).toBe(200);
    });

    it('answers a CORS preflight from an allowed origin, and not from another', async () => {
      const preflight = (origin: string) =>
        sender()({
          method: 'OPTIONS',
          path: '/api/v1/search',
          headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
        });
      const allowed = await preflight(ORIGIN);
      expect(allowed.status).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(allowed.headers['access-control-allow-methods']).toBe('GET, HEAD');
      expect(allowed.headers['access-control-allow-headers']).toMatch(/x-api-key/);
      expect(allowed.headers['access-control-max-age']).toBe('7200');
      const refused = await preflight('null');
      expect(refused.status).toBe(204);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      const answer = await sender()({ method: 'GET', path: '/api/v1', headers: { origin: ORIGIN } });
      expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(answer.headers['access-control-expose-headers']).toMatch(/ratelimit-policy/);
    });
  });
}

describe('the Node host', () => {
  let host: RunningHost;
  beforeAll(async () => {
    host = await startHost('node', { CORS_ORIGINS: ORIGIN });
  }, 120_000);
  afterAll(async () => {
    if (host) expect(await host.stop()).toBe(0);
  }, 30_000);
  checks('compression, 304 and CORS', () => (req) => send(host.baseUrl, req));
});

describe('the Lambda host', () => {
  let handler: ReturnType<typeof createLambdaHandler>;
  beforeAll(async () => {
    const hosted = await createServiceFromEnv({ CATALOGUE_STORAGE: 'memory', ADMIN_TOKEN: FIXTURE_ADMIN_TOKEN, LOG_LEVEL: 'error', CORS_ORIGINS: ORIGIN });
    handler = createLambdaHandler(hosted.service);
  }, 60_000);
  for (const kind of HTTP_EVENT_KINDS) {
    checks(`compression, 304 and CORS (${kind})`, () => async (req) => answerOf((await handler(eventFor(kind, req))) as HttpResult));
  }
});
