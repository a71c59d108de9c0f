/** The shared fixture against one runtime's host process: started once for the whole file. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer, jsonOf, textOf } from './answer.js';
import { FIXTURE, type FixtureContext } from './fixture.js';
import { type RunningHost, type Runtime, send, startHost } from './process-host.js';
import { fixtureContext } from './setup.js';

/** `more` adds cases of this runtime alone, against the same process. */
export function runFixtureAgainst(runtime: Runtime, more?: (host: () => RunningHost) => void): void {
  describe(`the ${runtime} host answers the shared fixture`, () => {
    let host: RunningHost;
    let ctx: FixtureContext;

    beforeAll(async () => {
      host = await startHost(runtime);
      ctx = await fixtureContext((req) => send(host.baseUrl, req), false);
    }, 120_000);

    afterAll(async () => {
      if (host) expect(await host.stop(), `${runtime} host exit code on SIGTERM`).toBe(0);
    }, 30_000);

    for (const c of FIXTURE) {
      it(c.name, async () => {
        for (const req of c.prime?.(ctx) ?? []) await send(host.baseUrl, req);
        checkAnswer(await send(host.baseUrl, c.request(ctx)), c.expect(ctx), `${runtime}: ${c.name}`);
      });
    }

    // Every runtime's start script serves the reference that /api/v1 links (issue 30 item 9).
    it('serves the API reference that /api/v1 links at /docs, with its assets', async () => {
      const index = jsonOf(await send(host.baseUrl, { method: 'GET', path: '/api/v1' })) as { _links: { docs: string } };
      const page = await send(host.baseUrl, { method: 'GET', path: new URL(index._links.docs).pathname });
      checkAnswer(page, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } }, `${runtime}: /docs`);
      expect(textOf(page)).toContain('swagger-ui');
      const bundle = await send(host.baseUrl, { method: 'GET', path: '/docs/assets/swagger-ui-bundle.js' });
      checkAnswer(bundle, { status: 200, headers: { 'content-type': /^text\/javascript/ } }, `${runtime}: /docs bundle`);
      expect(bundle.body.byteLength).toBeGreaterThan(100_000);
    });

    more?.(() => host);
  });
}
