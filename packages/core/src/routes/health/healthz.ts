/**
 * GET /healthz: the process is up and answering (a liveness probe). Public, counts nowhere, no
 * per-IP window, touches no dependency (docs/decisions.md §8, "Health and readiness").
 */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';

export const HealthSchema = v.strictObject({ status: v.literal('ok') });

export const healthzRoute = route({
  method: 'GET',
  path: '/healthz',
  access: 'open',
  summary: 'Liveness: the process is up',
  description: 'Public and unmetered; checks no dependency (see /readyz).',
  tags: ['health'],
  responses: { 200: { description: 'The process answers.', schema: HealthSchema } },
  handler: () => json({ status: 'ok' }),
});
