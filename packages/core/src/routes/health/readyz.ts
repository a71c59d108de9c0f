/**
 * GET /readyz: every dependency can serve — the database reachable with its migrations
 * current, the limit store reachable and its decisions not failing open (the service's probes,
 * ports/probe.ts; the service adds the last, gate/fail-open-watch.ts). 503 `not_ready` in
 * the spec's error shape, naming each failed check, otherwise. Public, counts nowhere, no per-IP
 * window (docs/decisions.md §8, "Health and readiness"). Each check is bounded, so a hung
 * dependency answers 503 in PROBE_TIMEOUT_MS rather than holding the probe.
 */
import * as v from 'valibot';
import { ApiError } from '../../errors/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { Probe } from '../../ports/index.js';

export const PROBE_TIMEOUT_MS = 2_000;

export const ReadySchema = v.strictObject({
  status: v.literal('ready'),
  checks: v.record(v.string(), v.literal('ok')),
});

async function run(probe: Probe, signal: AbortSignal): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${PROBE_TIMEOUT_MS} ms`), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe.check({ signal }).then(() => null), timeout]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

export const readyzRoute = route({
  method: 'GET',
  path: '/readyz',
  access: 'open',
  summary: 'Readiness: database and limit store reachable, migrations current',
  description: 'Public and unmetered. 503 not_ready names each failed check in details.',
  tags: ['health'],
  responses: { 200: { description: 'Every dependency can serve.', schema: ReadySchema } },
  errors: ['not_ready'],
  async handler({ ports, signal }) {
    const probes = ports.probes ?? [];
    const failures = await Promise.all(probes.map((probe) => run(probe, signal)));
    const details = probes.flatMap((probe, i) => (failures[i] === null ? [] : [{ path: probe.name, message: failures[i] as string }]));
    if (details.length > 0) {
      throw new ApiError('not_ready', { message: `not ready: ${details.map((d) => d.path).join(', ')}`, details });
    }
    return json({ status: 'ready', checks: Object.fromEntries(probes.map((probe) => [probe.name, 'ok'])) });
  },
});
