/**
 * What the two search-event beacons share: `POST {base}/search-events/observed` and `…/refined`, authenticated by
 * the per-search bearer token of the search answer instead of an API key. They never pass the
 * key gate, so they count toward no quota. The token is read from the header and compared, and
 * is never put into an error body or a log record.
 */
import * as v from 'valibot';
import { MAX_HELD_ID } from '../../catalogue/id-ranges.js';
import { invalidBody } from '../../errors/api-error.js';
import { admitBeacon, invalidBeaconToken } from '../../gate/beacon-gate.js';
import { readJsonCapped } from '../../http/body.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { CustomersAndKeys, SearchEvent, SearchEvents } from '../../ports/index.js';
import { named } from '../../schemas/named.js';
import { detailsOf } from '../../validation/issues.js';
import { storableText } from '../../validation/storable.js';

export const BEACON_MAX_BYTES = 16 * 1024;

const SearchIdSchema = v.pipe(
  v.string(),
  v.regex(/^srch_[0-9A-Z]{26}$/, 'must be the search_id of a search answer'),
  v.description('search_id of the search answer.'),
);

export const ObservedBodySchema = named(
  'ObservedEvent',
  v.strictObject({
    search_id: SearchIdSchema,
    hits: v.pipe(
      v.array(
        v.strictObject({
          id: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_HELD_ID), v.description('id of the hit as the search answered it.')),
          position: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000), v.description('0-based position the user saw it at.')),
        }),
      ),
      // Empty is a search that found nothing (or nothing the user saw): the event a catalogue most
      // needs to see (issue 12), so it is accepted like any other.
      v.maxLength(100, 'must hold at most 100 hits'),
      v.description('The hits the user saw; [] when the search found nothing.'),
    ),
  }),
);

export const RefinedBodySchema = named(
  'RefinedEvent',
  v.strictObject({
    search_id: SearchIdSchema,
    q: v.pipe(
      v.string(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(200, 'must be at most 200 characters'),
      storableText,
      v.description('The refined query the user typed next.'),
    ),
  }),
);

export const AcceptedSchema = named('EventAccepted', v.strictObject({ accepted: v.literal(true), search_id: v.string() }));

async function bodyOf<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
  const raw = await readJsonCapped(request, BEACON_MAX_BYTES, (reason) => invalidBody([{ path: '', message: reason }]));
  const parsed = v.safeParse(schema, raw);
  if (!parsed.success) throw invalidBody(detailsOf(parsed.issues));
  return parsed.output;
}

function accepted(searchId: string): Response {
  return new Response(JSON.stringify({ accepted: true, search_id: searchId }), {
    status: 202,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

const KINDS = {
  observed: {
    schema: ObservedBodySchema,
    summary: 'Beacon: the user saw these hits of a search',
    event: (b: v.InferOutput<typeof ObservedBodySchema>) => ({ hits: b.hits }),
  },
  refined: {
    schema: RefinedBodySchema,
    summary: 'Beacon: the user refined a search with a new query',
    event: (b: v.InferOutput<typeof RefinedBodySchema>) => ({ q: b.q }),
  },
} as const;

/** The beacon route of one event kind; paths are relative to the version base. */
export const beaconRoute = (kind: keyof typeof KINDS) =>
  route({
    method: 'POST',
    path: `/search-events/${kind}`,
    access: 'open',
    summary: KINDS[kind].summary,
    description:
      'Authorization: Bearer <beacon_token> of the search answer (valid 30 minutes, bound to its search_id and key, refused once that key is rotated, revoked or suspended). Does not count toward quota; at most 20 events per token and BEACON_RATE_LIMIT_PER_MINUTE per client IP a minute.',
    tags: ['beacons'],
    body: { schema: KINDS[kind].schema, description: 'The event.', maxBytes: BEACON_MAX_BYTES },
    responses: { 202: { description: 'Event stored.', schema: AcceptedSchema } },
    errors: ['invalid_beacon_token', 'invalid_body', 'payload_too_large', 'rate_limited'],
    async handler(ctx: WithAccounts<CustomersAndKeys & SearchEvents>) {
      const claims = await admitBeacon(ctx);
      const body = (await bodyOf(ctx.request, KINDS[kind].schema as v.GenericSchema)) as { search_id: string };
      if (body.search_id !== claims.searchId) throw invalidBeaconToken('the beacon token belongs to another search');
      const event = {
        kind,
        search_id: claims.searchId,
        key_id: claims.keyId,
        received_at: new Date(ctx.now),
        ...KINDS[kind].event(body as never),
      } as SearchEvent;
      await ctx.ports.accounts.recordSearchEvent(event);
      return accepted(claims.searchId);
    },
  });
