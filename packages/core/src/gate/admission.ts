/**
 * Access decisions per route kind. `admitKey` is the gate: authenticate, then one Limiter
 * call for burst + quota + concurrency. A Limiter that throws fails open: the request goes on
 * without limit headers, a `ratelimit.fail_open` record is logged and the alarm raised
 * (the alarm is throttled to once a minute by the service); fail-opens that persist also
 * raise `ratelimit.failing_open` and make /readyz answer 503 (fail-open-watch.ts).
 */
import type { ResolvedConfig } from '../config.js';
import { ApiError } from '../errors/api-error.js';
import type { RequestEvent } from '../http/request-event.js';
import type { Principal } from '../http/route.js';
import type { AdmitRequest, CallOptions, CustomersAndKeys, LimitDecision, Ports, PublicDecision, UsageJobs } from '../ports/index.js';
import { CONTRACT_REVIEW_CALLS, monthOf } from '../tiers.js';
import { type PresentedKey, presentedKey, principalOf } from './authenticate.js';
import type { FailOpenWatch } from './fail-open-watch.js';
import { constantTimeEqual } from './hash.js';
import type { KeyCache } from './key-cache.js';
import { rateLimited, rateLimitHeaders } from './limit-headers.js';
import { type KeyRead, SharedKeyReads } from './shared-key-reads.js';

/**
 * What the key gate keeps between requests, one per service. `cache` is the key cache when the
 * limiter proves accounts epochs (key-cache.ts; null: every check reads the store); `reads`
 * makes concurrent lookups of one key one read (shared-key-reads.ts); `watch` learns of every
 * key-limit decision and fail-open for /readyz (fail-open-watch.ts; null for a limiter that
 * cannot fail).
 */
export interface KeyGate {
  cache: KeyCache | null;
  reads: SharedKeyReads;
  watch: FailOpenWatch | null;
}

export function keyGate(parts: Partial<KeyGate> = {}): KeyGate {
  return { cache: parts.cache ?? null, reads: parts.reads ?? new SharedKeyReads(), watch: parts.watch ?? null };
}

/** The key gate reads keys and claims a contract's review once a month (docs/decisions.md §2). */
type GatePorts = Ports<CustomersAndKeys & UsageJobs>;

/**
 * The key gate of `event`: on success it leaves on the event the principal, the release of
 * the concurrency slot (counted calls) and the rate-limit headers; a refusal throws. The
 * event's lifetime goes to the store: its AbortSignal is only made when the store reads it.
 * With a key cache, counted calls skip the store's key lookup while the limiter's answer shows
 * the entry current.
 */
export async function admitKey(event: RequestEvent, ports: GatePorts, counted: boolean, gate: KeyGate = keyGate()): Promise<void> {
  const { now, lifetime } = event;
  const presented = presentedKey(event.request, ports.hasher);
  if (!counted) {
    const principal = principalOf((await readKey(gate, ports, presented, lifetime)).found, presented);
    try {
      // Usage names the quota policy too (issue 28 item 5): the month's count, read beside the peek.
      const month = ports.limiter.monthCount(principal.customer.id, principal.key.environment, monthOf(now));
      const [burst, used] = await Promise.all([ports.limiter.peek(admitRequestOf(principal, now)), month]);
      gate.watch?.decided();
      return letThrough(event, principal, rateLimitHeaders(burst, now, { limit: principal.policy.quotaPerMonth, used }), null);
    } catch (error) {
      return failOpen(event, ports, gate, principal, error);
    }
  }
  const { cache } = gate;
  const cached = cache?.get(presented.hash, now);
  if (cache && cached) {
    const principal = principalOf(cached.found, presented);
    let decision: LimitDecision;
    try {
      decision = await ports.limiter.admit(admitRequestOf(principal, now, cached.epoch));
    } catch (error) {
      // Without the limiter's answer nothing proves the entry current: read the store, then fail
      // open (the limiter has already kept this call for its replay; it is not admitted twice).
      cache.delete(presented.hash);
      return failOpen(event, ports, gate, principalOf((await readKey(gate, ports, presented, lifetime)).found, presented), error);
    }
    gate.watch?.decided();
    if (!decision.stale) return admitted(event, ports, principal, decision);
    staleAnswer(cache, presented.hash, decision);
  }
  let read = await readKey(gate, ports, presented, lifetime);
  let principal = principalOf(read.found, presented);
  let decision: LimitDecision;
  try {
    // A joined read may have started before this request arrived, so before a change its
    // caller has already heard of (§3: it applies on the next request). Its epoch, when one
    // is known, lets the limiter answer `stale` (counting nothing) if one has landed since;
    // the read made then starts after the epoch it learned of.
    decision = await ports.limiter.admit(admitRequestOf(principal, now, read.joined ? (read.epochBefore ?? undefined) : undefined));
    if (decision.stale) {
      gate.watch?.decided();
      if (cache) staleAnswer(cache, presented.hash, decision);
      read = await readKey(gate, ports, presented, lifetime);
      principal = principalOf(read.found, presented);
      decision = await ports.limiter.admit(admitRequestOf(principal, now));
    }
  } catch (error) {
    return failOpen(event, ports, gate, principal, error);
  }
  gate.watch?.decided();
  if (cache && decision.authEpoch !== undefined) {
    // The epoch seen before the read started: if it is still current after it, no change raced it.
    const { epochBefore, found } = read;
    if (epochBefore !== null && decision.authEpoch === epochBefore && found) cache.set(presented.hash, found, epochBefore, now);
    cache.lastEpoch = decision.authEpoch;
  }
  return admitted(event, ports, principal, decision);
}

/** What admission leaves on the event of a request it lets through (the headers go with every answer to it). */
function letThrough(event: RequestEvent, principal: Principal | null, headers: Record<string, string> | null, release: (() => Promise<void>) | null): void {
  event.principal = principal;
  if (headers) event.headersFrom(headers);
  event.release = release;
}

/** The key's row, read once for every request asking for it at the same time (shared-key-reads.ts). */
function readKey(gate: KeyGate, ports: GatePorts, presented: PresentedKey, lifetime: CallOptions): Promise<KeyRead> {
  return gate.reads.read(ports.accounts, presented.hash, lifetime, gate.cache?.lastEpoch ?? null);
}

/** The limiter answered `stale`: the entry is gone, and the epoch it answered is known current. */
function staleAnswer(cache: KeyCache, hash: string, decision: LimitDecision): void {
  cache.delete(hash);
  // A read from here on that finds the epoch unchanged can be cached.
  if (decision.authEpoch !== undefined) cache.lastEpoch = decision.authEpoch;
}

function admitRequestOf(principal: Principal, now: number, authEpoch?: string): AdmitRequest {
  const request: AdmitRequest = {
    customerId: principal.customer.id,
    environment: principal.key.environment,
    keyId: principal.key.id,
    policy: principal.policy,
    now,
  };
  if (authEpoch !== undefined) request.authEpoch = authEpoch;
  return request;
}

async function admitted(event: RequestEvent, ports: GatePorts, principal: Principal, decision: LimitDecision): Promise<void> {
  const { now } = event;
  const quota = { limit: principal.policy.quotaPerMonth, used: decision.monthCount };
  if (!decision.allowed) throw rateLimited(decision, decision.reason ?? 'burst', now, quota);
  // Once per customer and month: live and test cross separately, and runJobs backs up a
  // crossing the gate missed; the claim makes all of them one alarm.
  if (
    principal.policy.quotaMode === 'contract' &&
    decision.monthCount === CONTRACT_REVIEW_CALLS + 1 &&
    (await ports.accounts.claimContractReview(principal.customer.id, monthOf(now)).catch(() => true))
  ) {
    const detail = { customer_id: principal.customer.id, environment: principal.key.environment, month: monthOf(now), calls: decision.monthCount };
    ports.logger.log({ level: 'warn', kind: 'quota.contract_review', ...detail });
    ports.alarm.raise('quota.contract_review', detail);
  }
  letThrough(event, principal, rateLimitHeaders(decision, now, quota), decision.release);
}

function failOpen(event: RequestEvent, ports: Ports, gate: KeyGate, principal: Principal, error: unknown): void {
  if (error instanceof ApiError) throw error;
  // Persistently failing open makes the instance not ready (fail-open-watch.ts, §8).
  gate.watch?.failedOpen();
  const detail = {
    customer_id: principal.customer.id,
    key_prefix: principal.key.display_prefix,
    error: error instanceof Error ? error.message : String(error),
  };
  ports.logger.log({ level: 'warn', kind: 'ratelimit.fail_open', ...detail });
  ports.metrics.limiterFailOpen('key');
  ports.alarm.raise('ratelimit.fail_open', detail);
  letThrough(event, principal, null, null);
}

/** The per-IP window of a public route; on success the event carries its rate-limit headers. */
export async function admitPublic(event: RequestEvent, ports: Ports, config: ResolvedConfig): Promise<void> {
  const { now } = event;
  try {
    const decision = await ports.limiter.admitPublic(event.clientIp, config.publicRateLimitPerMinute, now);
    if (!decision.allowed) throw rateLimited(decision, 'burst', now);
    event.headersFrom(rateLimitHeaders(decision, now));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    ports.logger.log({ level: 'warn', kind: 'ratelimit.fail_open', scope: 'public', error: error instanceof Error ? error.message : String(error) });
    ports.metrics.limiterFailOpen('public');
    ports.alarm.raise('ratelimit.fail_open', { scope: 'public' });
  }
}

/** Failed admin tokens an IP may send in a minute; past them it is answered 429 (issue 30, 4). */
export const ADMIN_FAILURES_PER_MINUTE = 10;

/** Where checkAdmin counts failures: the service's ports, the client's IP, the request's time. */
interface AdminGuard {
  ports: Ports;
  ip: string;
  now: number;
}

/**
 * The ADMIN_TOKEN bearer, compared in constant time. With a guard, failures are throttled and
 * logged per client IP: each is one `admin.auth_failed` line (the IP and why, never the token
 * sent) and counts in the IP's window; an IP with ADMIN_FAILURES_PER_MINUTE failures in its
 * window is answered 429 with Retry-After before its token is even compared, the right token
 * included, so the throttle cannot be used as an oracle, and the alarm is raised
 * (`admin.auth_throttled`, throttled to once a minute like every alarm). A limiter that fails
 * lets the check go on (fail open, logged), as every limit does. Without `ports` nothing is
 * throttled or logged (the check alone).
 */
export async function checkAdmin(event: RequestEvent, config: ResolvedConfig, ports: Ports | null = null): Promise<void> {
  const guard: AdminGuard | null = ports ? { ports, ip: event.clientIp, now: event.now } : null;
  const header = event.request.headers.get('authorization') ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (guard) await adminFailures(guard, true);
  if (!config.adminToken || !token || !constantTimeEqual(token, config.adminToken)) {
    if (guard) {
      guard.ports.logger.log({ level: 'warn', kind: 'admin.auth_failed', ip: guard.ip, reason: token ? 'wrong token' : 'no bearer token' });
      await adminFailures(guard, false);
    }
    throw new ApiError('unauthorized', { message: 'admin routes need Authorization: Bearer <ADMIN_TOKEN>' }, { 'www-authenticate': 'Bearer' });
  }
}

/** Reads (`peek`) or counts the IP's failures; throws the 429 when the IP has used them up. */
async function adminFailures({ ports, ip, now }: AdminGuard, peek: boolean): Promise<void> {
  let decision: PublicDecision;
  try {
    decision = await ports.limiter.admitPublic(`admin-auth:${ip}`, ADMIN_FAILURES_PER_MINUTE, now, { peek });
  } catch (error) {
    ports.logger.log({ level: 'warn', kind: 'ratelimit.fail_open', scope: 'admin-auth', error: error instanceof Error ? error.message : String(error) });
    ports.metrics.limiterFailOpen('public');
    return;
  }
  if (!decision.allowed) {
    // Someone is guessing the operator's token: the alarm (at most once a minute) says from where.
    ports.alarm.raise('admin.auth_throttled', { ip, failures_per_minute: ADMIN_FAILURES_PER_MINUTE });
    throw rateLimited(decision, 'burst', now);
  }
}
