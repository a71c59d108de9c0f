/** Search-event beacons: per-search HMAC tokens, 202 on v1 and v2, 401 for anything not genuine. */
import { createBeaconSigner } from '@catalogue/core';
import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../support/service.js';

const SECRET = '5f'.repeat(32);

async function client(config: { secretKey?: string | null; beaconRateLimitPerMinute?: number } = { secretKey: SECRET }) {
  const t = setup({ now: '2026-06-29T12:00:00Z', config });
  const key = await t.issueKey({ tier: 'self_serve_49' });
  const search = async (path = '/api/v1/search?q=moments') => {
    const res = await t.fetch(path, { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    return (await res.json()) as { search_id: string; beacon_token: string | null; hits: Array<{ id: number }> };
  };
  const beacon = (path: string, token: string | null, body: unknown) =>
    t.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { t, key, search, beacon };
}

describe('search-event beacons', () => {
  it('every search answer carries search_id and a beacon_token; beacons answer 202 and are stored', async () => {
    const { t, search, beacon } = await client();
    for (const base of ['/api/v1', '/api/v2']) {
      const answer = await search(`${base}/search?q=moments`);
      expect(answer.search_id).toMatch(/^srch_[0-9A-Z]{26}$/);
      expect(answer.beacon_token).toMatch(/^bt1\.srch_[0-9A-Z]{26}\.key_[0-9A-Z]+\.\d+\.[A-Za-z0-9_-]{43}$/);
      const observed = await beacon(`${base}/search-events/observed`, answer.beacon_token, { search_id: answer.search_id, hits: [{ id: 113, position: 0 }] });
      expect(observed.status).toBe(202);
      expect(await observed.json()).toEqual({ accepted: true, search_id: answer.search_id });
      const refined = await beacon(`${base}/search-events/refined`, answer.beacon_token, { search_id: answer.search_id, q: 'moments in time' });
      expect(refined.status).toBe(202);
    }
    const keyId = [...t.accounts.keys.values()][0]?.id;
    expect(t.accounts.searchEvents).toHaveLength(4);
    expect(t.accounts.searchEvents[0]).toEqual({
      kind: 'observed',
      search_id: expect.stringMatching(/^srch_/),
      key_id: keyId,
      received_at: new Date('2026-06-29T12:00:00Z'),
      hits: [{ id: 113, position: 0 }],
    });
    expect(t.accounts.searchEvents[1]).toMatchObject({ kind: 'refined', q: 'moments in time', key_id: keyId });
  });

  it('forged, tampered, expired and other-search tokens answer 401 invalid_beacon_token', async () => {
    const { t, search, beacon } = await client();
    const a = await search();
    const b = await search();
    const token = a.beacon_token as string;
    const body = { search_id: a.search_id, q: 'x' };
    const path = '/api/v1/search-events/refined';

    await expectError(await beacon(path, null, body), 401, 'invalid_beacon_token');
    await expectError(await beacon(path, 'not-a-token', body), 401, 'invalid_beacon_token');
    const forged = createBeaconSigner('6a'.repeat(32)).issue(a.search_id, 'key_01ABC', t.clock.now());
    await expectError(await beacon(path, forged, body), 401, 'invalid_beacon_token');
    const parts = token.split('.');
    const otherKey = [parts[0], parts[1], 'key_01OTHER', parts[3], parts[4]].join('.');
    await expectError(await beacon(path, otherKey, body), 401, 'invalid_beacon_token');
    const extended = [parts[0], parts[1], parts[2], String(Number(parts[3]) + 3600), parts[4]].join('.');
    await expectError(await beacon(path, extended, body), 401, 'invalid_beacon_token');
    // A genuine token of search b does not speak for search a.
    const other = await expectError(await beacon(path, b.beacon_token, body), 401, 'invalid_beacon_token');
    expect(other.message).toBe('the beacon token belongs to another search');

    t.clock.advance(30 * 60_000 - 1000);
    expect((await beacon(path, token, body)).status).toBe(202);
    t.clock.advance(1000);
    await expectError(await beacon(path, token, body), 401, 'invalid_beacon_token');
    expect(t.accounts.searchEvents).toHaveLength(1);
  });

  it('a search that found nothing is accepted: hits [] answers 202 and is stored (issue 12)', async () => {
    const { t, search, beacon } = await client();
    const a = await search();
    for (const path of ['/api/v1/search-events/observed', '/api/v2/search-events/observed']) {
      const answer = await beacon(path, a.beacon_token, { search_id: a.search_id, hits: [] });
      expect(answer.status).toBe(202);
      expect(await answer.json()).toEqual({ accepted: true, search_id: a.search_id });
    }
    expect(t.accounts.searchEvents.map((event) => ('hits' in event ? event.hits : null))).toEqual([[], []]);
  });

  it('bad bodies answer 400 invalid_body', async () => {
    const { search, beacon } = await client();
    const a = await search();
    const observed = '/api/v2/search-events/observed';
    for (const body of [
      '{',
      '[]',
      { search_id: a.search_id },
      { search_id: a.search_id, hits: [{ id: 'x', position: 0 }] },
      { search_id: a.search_id, hits: [{ id: 1, position: 0 }], extra: 1 },
      { search_id: 'nope', hits: [{ id: 1, position: 0 }] },
    ]) {
      await expectError(await beacon(observed, a.beacon_token, body), 400, 'invalid_body');
    }
    await expectError(await beacon('/api/v2/search-events/refined', a.beacon_token, { search_id: a.search_id, q: '' }), 400, 'invalid_body');
    await expectError(
      await beacon(observed, a.beacon_token, JSON.stringify({ search_id: a.search_id, hits: [], pad: 'x'.repeat(20_000) })),
      413,
      'payload_too_large',
    );
  });

  it('beacons count toward no quota and the token never reaches the logs', async () => {
    const { t, key, search, beacon } = await client();
    const a = await search();
    for (let i = 0; i < 70; i++) {
      // 15 a minute: under the per-token bound, while 70 calls in under 5 minutes of self_serve_49 would not be.
      t.clock.advance(4_000);
      expect((await beacon('/api/v1/search-events/observed', a.beacon_token, { search_id: a.search_id, hits: [{ id: 113, position: i }] })).status).toBe(202);
    }
    await beacon('/api/v1/search-events/observed', `${a.beacon_token}x`, { search_id: a.search_id, hits: [{ id: 1, position: 0 }] });
    const usage = (await (await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } })).json()) as { calls: number };
    expect(usage.calls).toBe(1); // the search alone
    const logged = JSON.stringify(t.logs);
    expect(logged).not.toContain((a.beacon_token as string).split('.')[4]);
  });

  it('bounds one token: 300 replays within a second are refused past 20 with 429, and it recovers a minute later', async () => {
    const { t, search, beacon } = await client();
    const a = await search();
    const body = { search_id: a.search_id, hits: [{ id: 113, position: 0 }] };
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) statuses.push((await beacon('/api/v1/search-events/observed', a.beacon_token, body)).status);
    expect(statuses.filter((status) => status === 202)).toHaveLength(20);
    const refused = await beacon('/api/v1/search-events/observed', a.beacon_token, body);
    const error = await expectError(refused, 429, 'rate_limited');
    expect(error).toMatchObject({ reason: 'burst', retry_after_seconds: expect.any(Number) });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(t.accounts.searchEvents).toHaveLength(20);
    // Another search of the same key is not held back by the first one's bound.
    const b = await search();
    expect((await beacon('/api/v1/search-events/observed', b.beacon_token, { search_id: b.search_id, hits: [{ id: 113, position: 0 }] })).status).toBe(202);
    t.clock.advance(120_000);
    expect((await beacon('/api/v1/search-events/observed', a.beacon_token, body)).status).toBe(202);
  });

  it('bounds one client IP across tokens', async () => {
    const { t, search, beacon } = await client({ secretKey: SECRET, beaconRateLimitPerMinute: 100 });
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await search());
    let accepted = 0;
    let limited = 0;
    for (const answer of answers) {
      for (let i = 0; i < 20; i++) {
        const status = (await beacon('/api/v2/search-events/observed', answer.beacon_token, { search_id: answer.search_id, hits: [{ id: 1, position: i }] }))
          .status;
        if (status === 202) accepted++;
        if (status === 429) limited++;
      }
    }
    // 160 beacons from one IP in a minute, 20 per token: the per-IP bound (100 here) refuses the rest.
    expect(accepted).toBe(100);
    expect(limited).toBe(60);
    const elsewhere = answers[7] as { search_id: string; beacon_token: string };
    const fromAnotherIp = await t.fetch(
      '/api/v2/search-events/refined',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${elsewhere.beacon_token}` },
        body: JSON.stringify({ search_id: elsewhere.search_id, q: 'other ip' }),
      },
      { clientIp: '198.51.100.9' },
    );
    expect(fromAnotherIp.status).toBe(202);
  });

  it.each(['rotated', 'revoked', 'suspended'] as const)('refuses the tokens of a key that was %s since the search', async (status) => {
    const { t, search, beacon } = await client();
    const a = await search();
    const body = { search_id: a.search_id, q: 'after' };
    expect((await beacon('/api/v1/search-events/refined', a.beacon_token, body)).status).toBe(202);
    for (const key of t.accounts.keys.values()) key.status = status;
    const refused = await expectError(await beacon('/api/v1/search-events/refined', a.beacon_token, body), 401, 'invalid_beacon_token');
    expect(refused.message).toBe('the key this search was made with is no longer active');
    expect(t.accounts.searchEvents).toHaveLength(1);
  });

  it('refuses the tokens of a customer that is no longer in good standing', async () => {
    const { t, search, beacon } = await client();
    const a = await search();
    for (const customer of t.accounts.customers.values()) customer.status = 'past_due';
    await expectError(await beacon('/api/v1/search-events/refined', a.beacon_token, { search_id: a.search_id, q: 'x' }), 401, 'invalid_beacon_token');
  });

  it('without SECRET_KEY no token is issued and every beacon is refused; a short secret refuses to start', async () => {
    const { search, beacon } = await client({ secretKey: null });
    const a = await search();
    expect(a.beacon_token).toBeNull();
    expect(a.search_id).toMatch(/^srch_/);
    const forged = createBeaconSigner(SECRET).issue(a.search_id, 'key_01ABC', Date.parse('2026-06-29T12:00:00Z'));
    await expectError(await beacon('/api/v1/search-events/refined', forged, { search_id: a.search_id, q: 'x' }), 401, 'invalid_beacon_token');
    expect(() => setup({ config: { secretKey: 'abcd' } })).toThrow(/SECRET_KEY/);
  });
});
