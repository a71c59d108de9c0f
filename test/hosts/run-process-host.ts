/** The shared fixture against one runtime's host process: started once for the whole file. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer } from './answer.js';
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

    more?.(() => host);
  });
}
