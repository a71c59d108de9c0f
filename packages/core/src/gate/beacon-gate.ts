/**
 * What a beacon must pass before it is stored (docs/decisions.md §7): a genuine, unexpired token
 * (beacon-token.ts); at most BEACON_EVENTS_PER_TOKEN_PER_MINUTE events per token and the
 * configured number per client IP (the limiter's per-subject sliding window, shared by every
 * instance on Redis); and a key that is still active with its customer in good standing, so a
 * rotated or revoked key's searches stop feeding the catalogue at once (docs/decisions.md §3:
 * revocation applies on the next request). The limits fail open like the key gate's.
 */

import { ApiError } from '../errors/api-error.js';
import type { RouteContext, WithAccounts } from '../http/route.js';
import type { CustomersAndKeys, PublicDecision } from '../ports/index.js';
import { type BeaconClaims, beaconSignerFor } from './beacon-token.js';
import { rateLimited } from './limit-headers.js';

/** A search answer's beacons: a user sees and refines a handful per minute, never hundreds. */
export const BEACON_EVENTS_PER_TOKEN_PER_MINUTE = 20;

/** 401 with the beacons' WWW-Authenticate (the error table's); `message` when it is not the code's sentence (a bad or expired token). */
export function invalidBeaconToken(message?: string): ApiError {
  return new ApiError('invalid_beacon_token', message === undefined ? {} : { message });
}

function verifiedClaims(ctx: RouteContext): BeaconClaims {
  const header = ctx.request.headers.get('authorization') ?? '';
  if (!header.startsWith('Bearer ')) throw invalidBeaconToken('send the search answer’s beacon_token as Authorization: Bearer <beacon_token>');
  const claims = beaconSignerFor(ctx.config.secretKey)?.verify(header.slice(7).trim(), ctx.now) ?? null;
  if (!claims) throw invalidBeaconToken();
  return claims;
}

async function within(ctx: RouteContext, subject: string, perMinute: number): Promise<void> {
  let decision: PublicDecision;
  try {
    decision = await ctx.ports.limiter.admitPublic(subject, perMinute, ctx.now);
  } catch (error) {
    ctx.ports.logger.log({ level: 'warn', kind: 'ratelimit.fail_open', scope: 'beacon', error: error instanceof Error ? error.message : String(error) });
    ctx.ports.metrics.limiterFailOpen('beacon');
    ctx.ports.alarm.raise('ratelimit.fail_open', { scope: 'beacon' });
    return;
  }
  if (!decision.allowed) throw rateLimited(decision, 'burst', ctx.now);
}

/** The beacon's claims, once its token, its limits and its key (looked up by id) say it may be stored. */
export async function admitBeacon(ctx: WithAccounts<CustomersAndKeys>): Promise<BeaconClaims> {
  const claims = verifiedClaims(ctx);
  // The IP first: a client flooding with one token uses up its own budget, not the token's.
  await within(ctx, `beacon-ip:${ctx.clientIp}`, ctx.config.beaconRateLimitPerMinute);
  await within(ctx, `beacon-token:${claims.searchId}`, BEACON_EVENTS_PER_TOKEN_PER_MINUTE);
  const found = await ctx.ports.accounts.findKeyById(claims.keyId, ctx.lifetime);
  const active = found !== null && found.key.status === 'active' && found.customer.status === 'active';
  if (!active) {
    throw invalidBeaconToken('the key this search was made with is no longer active');
  }
  return claims;
}
