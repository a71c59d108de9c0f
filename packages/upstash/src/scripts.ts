/**
 * The limiter's Lua scripts. `ADMIT` does quota + burst + concurrency acquire atomically, so an
 * admitted request costs one round trip (EVALSHA, falling back to EVAL on NOSCRIPT).
 *
 * Burst follows the memory Limiter of @catalogue/core: an exact sliding log of the calls of
 * the last 60 s (a sorted set of call ids scored by time), so steady traffic at the limit
 * always passes and no window ever holds more than the limit. The public per-IP limit is
 * @upstash/ratelimit's `slidingWindow` algorithm (its keys and weighted two-window arithmetic),
 * as in the memory Limiter. The library itself is not a dependency: its scripts declare the
 * `allow-key-locking` shebang flag, which Redis before 7.2 refuses, and its weighted window
 * turns away steady traffic at exactly the rate (spec, Limits rule 2), so burst could not use
 * it either; one script of our own also keeps an admitted request at one round trip.
 *
 * The month counter is a hash { n, g, f, c, ct }: `g` is a random generation id written when the
 * counter is (re)seeded from durable usage, so an instance can tell that Redis lost counts it
 * made (the generation changed) and replay them; `f` is how far its count is durable in
 * PostgreSQL, and `c`/`ct` a flush claimed but not yet confirmed (FLUSH_CLAIM, usage-flush.ts).
 */

/**
 * The month counter's count, generation and durable mark in one command; seeds the counter when
 * it is missing and the seed is known (the seed is durable already, so `f` starts there).
 * Returns nil when it is missing and no seed was given. A counter written before `f` existed
 * answers its count as `f`: its instances flushed their own calls (FLUSH_CLAIM).
 */
const MONTH_STATE = `
local function month_state(monthKey, seed, gen, ttlMs)
  local state = redis.call('HMGET', monthKey, 'n', 'g', 'f')
  if state[1] then return tonumber(state[1]), state[2], tonumber(state[3] or state[1]) end
  if seed == '' then return nil end
  redis.call('HSET', monthKey, 'n', seed, 'g', gen, 'f', seed)
  redis.call('PEXPIRE', monthKey, ttlMs)
  return tonumber(seed), gen, tonumber(seed)
end
`;

/**
 * A call's "counted" marker: a bit of its instance's bitmap (bit >= 0, one bit per call, see
 * call-markers.ts), or a key of its own for the ids a replay makes up (bit -1). Sets it and
 * answers whether it was clear; the marker outlives the call by markerTtlMs.
 */
const MARK_CALL = `
local function mark_call(key, bit, ttlMs)
  local fresh
  if bit >= 0 then
    fresh = redis.call('SETBIT', key, bit, 1) == 0
  else
    fresh = redis.call('SET', key, '1', 'NX') ~= false
  end
  redis.call('PEXPIRE', key, ttlMs)
  return fresh
end
`;

/** Forgets calls that left the window; returns how many remain and when the next slot frees. */
const BURST_LOG = `
local function burst_log(key, now, window)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local used = redis.call('ZCARD', key)
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local nextFree = now + window
  if oldest[2] then nextFree = tonumber(oldest[2]) + window end
  return used, nextFree
end
`;

/**
 * KEYS: burst log, month hash, lease set, call marker (its instance's bitmap of the slot),
 *       accounts epoch (a cluster: the slot's copy) — all in the customer's slot (keys.ts)
 * ARGV: now, windowMs, burstLimit, quota, block (1|0), concurrency, leaseMs, callId,
 *       markerTtlMs, seed ('' when unknown), monthTtlMs, expectedEpoch ('' for none), marker
 *       bit, epoch seed (below), then the ids of leases of this key released since
 *       (lease-releases.ts: removed first, whatever the answer, so a release needs no command of
 *       its own)
 * Returns { status, gen, monthCount, burstUsed, nextFreeMs, epoch, durable }; status is ok | quota |
 * burst | concurrency | dup (call id already counted) | seed (month counter missing, seed
 * unknown) | epoch (the slot's accounts epoch copy is missing, epoch seed '': nothing counted)
 * | stale (expectedEpoch is not the accounts epoch: nothing counted, the caller's cached key
 * lookup is out of date). For ok, burstUsed and nextFreeMs include the call, and durable is the
 * counter's `f` (how far it is in PostgreSQL).
 * A generation the script creates is 'g' and the call's id (unique already). A missing accounts
 * epoch (a Redis that restarted empty, a new cluster's slot) is created from the epoch seed: on
 * a single Redis '*', 'c' and the call's id (its one key is the epoch: no cached lookup survives
 * its loss); on a cluster the global epoch the limiter read (auth-epochs.ts), so every slot's copy
 * holds the one epoch the key cache compares across customers.
 */
export const ADMIT_SCRIPT = `${MONTH_STATE}${MARK_CALL}${BURST_LOG}
local now         = tonumber(ARGV[1])
local window      = tonumber(ARGV[2])
local tokens      = tonumber(ARGV[3])
local quota       = tonumber(ARGV[4])
local block       = ARGV[5] == '1'
local concurrency = tonumber(ARGV[6])
local leaseMs     = tonumber(ARGV[7])
local bit         = tonumber(ARGV[13])

if #ARGV > 14 then redis.call('ZREM', KEYS[3], unpack(ARGV, 15)) end

local epoch = redis.call('GET', KEYS[5])
if not epoch then
  if ARGV[14] == '' then return {'epoch'} end
  epoch = ARGV[14]
  if epoch == '*' then epoch = 'c' .. ARGV[8] end
  redis.call('SET', KEYS[5], epoch)
end
if ARGV[12] ~= '' and ARGV[12] ~= epoch then return {'stale', '', 0, 0, 0, epoch} end

local used, gen, durable = month_state(KEYS[2], ARGV[10], 'g' .. ARGV[8], ARGV[11])
if not used then return {'seed'} end

-- A late delivery of a call that a replay already counted: count nothing twice.
if redis.call('GETBIT', KEYS[4], bit) == 1 then return {'dup', gen, used, 0, 0, epoch} end

local burstUsed, nextFree = burst_log(KEYS[1], now, window)
if block and used >= quota then return {'quota', gen, used, burstUsed, nextFree, epoch} end
if burstUsed >= tokens then return {'burst', gen, used, burstUsed, nextFree, epoch} end

-- Expired leases (a release that never came) matter only when they would refuse the call: clear
-- them then, not on every call.
local held = redis.call('ZCARD', KEYS[3])
if held >= concurrency then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) >= concurrency then return {'concurrency', gen, used, burstUsed, nextFree, epoch} end
end

redis.call('ZADD', KEYS[1], now, ARGV[8])
redis.call('PEXPIRE', KEYS[1], window + 1000)
if burstUsed == 0 then nextFree = now + window end
used = redis.call('HINCRBY', KEYS[2], 'n', 1)
redis.call('ZADD', KEYS[3], now + leaseMs, ARGV[8])
redis.call('PEXPIRE', KEYS[3], leaseMs + 1000)
mark_call(KEYS[4], bit, ARGV[9])
return {'ok', gen, used, burstUsed + 1, nextFree, epoch, durable}
`;

/**
 * Replays counts into the month counter, each under an id that is counted at most once.
 * KEYS: month hash, then one call marker per replayed entry
 * ARGV: seed ('' when unknown), newGen, monthTtlMs, markerTtlMs, then per marker its count
 *       and its bit (-1 for a marker key of its own)
 * Returns { 'ok', gen, monthCount, added, durable } (the calls this replay added are the
 * counter's last `added` before monthCount) or { 'seed' }.
 */
export const REPLAY_SCRIPT = `${MONTH_STATE}${MARK_CALL}
local n, gen, durable = month_state(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
if not n then return {'seed'} end
local added = 0
for i = 2, #KEYS do
  local at = 5 + (i - 2) * 2
  if mark_call(KEYS[i], tonumber(ARGV[at + 1]), ARGV[4]) then
    added = added + tonumber(ARGV[at])
  end
end
if added > 0 then n = redis.call('HINCRBY', KEYS[1], 'n', added) end
return {'ok', gen, n, added, durable}
`;

/**
 * Claims the range of a month counter that is not durable yet, for one flusher at a time
 * (usage-flush.ts). KEYS: month hash; ARGV: claimTtlMs.
 * Returns { 'claim', gen, from, upto } (write (from, upto] to PostgreSQL, then FLUSH_COMMIT), or
 * { 'clean' | 'busy' | 'none', gen } (nothing to flush; another flusher holds a fresh claim; no
 * counter). A claim older than claimTtlMs (its flusher died) is taken over with the same range:
 * PostgreSQL's flush is idempotent per range, so a claim that did reach it adds nothing twice.
 * Redis's own clock times claims, so hosts whose clocks differ agree.
 */
export const FLUSH_CLAIM_SCRIPT = `
local state = redis.call('HMGET', KEYS[1], 'n', 'g', 'f', 'c', 'ct')
if not state[1] then return {'none', ''} end
local n = tonumber(state[1])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if not state[3] then
  -- A counter from before shared flushes: its instances flushed their own calls so far.
  redis.call('HSET', KEYS[1], 'f', n)
  return {'clean', state[2]}
end
if state[4] then
  if now - tonumber(state[5]) < tonumber(ARGV[1]) then return {'busy', state[2]} end
  redis.call('HSET', KEYS[1], 'ct', now)
  return {'claim', state[2], tonumber(state[3]), tonumber(state[4])}
end
if n <= tonumber(state[3]) then return {'clean', state[2]} end
redis.call('HSET', KEYS[1], 'c', n, 'ct', now)
return {'claim', state[2], tonumber(state[3]), n}
`;

/**
 * A claimed range is durable: moves `f` to it and ends the claim, unless the counter was
 * re-seeded meanwhile (another generation: nothing of the old one applies).
 * KEYS: month hash; ARGV: gen, upto. Returns 1 when the counter took it, else 0.
 */
export const FLUSH_COMMIT_SCRIPT = `
local state = redis.call('HMGET', KEYS[1], 'g', 'f', 'c')
if state[1] ~= ARGV[1] then return 0 end
local upto = tonumber(ARGV[2])
if state[3] and tonumber(state[3]) <= upto then redis.call('HDEL', KEYS[1], 'c', 'ct') end
if tonumber(state[2]) < upto then redis.call('HSET', KEYS[1], 'f', upto) end
return 1
`;

/** The global accounts epoch, made from ARGV[1] when missing. KEYS: it. Returns { epoch }. */
export const GLOBAL_EPOCH_SCRIPT = `
local epoch = redis.call('GET', KEYS[1])
if epoch then return {epoch} end
redis.call('SET', KEYS[1], ARGV[1])
return {ARGV[1]}
`;

/** Adds a member to a set that lives as long as `ttlMs` from now. KEYS: set; ARGV: member, ttlMs. */
export const MARK_DIRTY_SCRIPT = `
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** A set's members. KEYS: set. */
export const MEMBERS_SCRIPT = `
return redis.call('SMEMBERS', KEYS[1])
`;

/** The burst log as it stands. KEYS: burst log; ARGV: now, windowMs. Returns { used, nextFreeMs }. */
export const PEEK_SCRIPT = `${BURST_LOG}
local used, nextFree = burst_log(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
return {used, nextFree}
`;

/**
 * The per-IP sliding window of the public routes: the library's slidingWindow limit script.
 * KEYS: current, previous; ARGV: tokens, now, windowMs, and 0 to read the window without
 * counting (a peek: the failed admin tokens of an IP). Returns remaining (-1 when refused).
 */
export const PUBLIC_SCRIPT = `
local tokens = tonumber(ARGV[1])
local now    = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local requestsInCurrentWindow = redis.call('GET', KEYS[1])
if requestsInCurrentWindow == false then requestsInCurrentWindow = 0 end
local requestsInPreviousWindow = redis.call('GET', KEYS[2])
if requestsInPreviousWindow == false then requestsInPreviousWindow = 0 end
local percentageInCurrent = (now % window) / window
requestsInPreviousWindow = math.floor((1 - percentageInCurrent) * requestsInPreviousWindow)
if requestsInPreviousWindow + requestsInCurrentWindow >= tokens then return -1 end
if ARGV[4] == '0' then return tokens - (requestsInPreviousWindow + requestsInCurrentWindow) end
local newValue = redis.call('INCRBY', KEYS[1], 1)
if newValue == 1 then
  redis.call('PEXPIRE', KEYS[1], window * 2 + 1000)
end
return tokens - (newValue + requestsInPreviousWindow)
`;
