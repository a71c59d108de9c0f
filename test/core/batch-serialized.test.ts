/**
 * The batch route over a catalogue that hands over serialized records (Catalogue.mastersJson,
 * as the PostgreSQL catalogue does) answers byte for byte what it answers over parsed ones.
 */

import { gunzipSync } from 'node:zlib';
import { type Catalogue, createService, issueCustomerKey, type MasterData } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { describe, expect, it } from 'vitest';
import { fixtureData } from '../support/fixture-data.js';

async function batchAnswer(catalogue: Catalogue, ids: number[], base: '/api/v1', gzip = false): Promise<{ status: number; text: string }> {
  const accounts = createMemoryAccounts();
  const service = createService({ catalogue, accounts, limiter: createMemoryLimiter(), logger: { log() {} } }, { baseUrl: 'http://x.test' });
  const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'contract_2000', environment: 'test' }, new Date());
  const res = await service.fetch(
    new Request(`http://x.test${base}/masters/batch`, {
      method: 'POST',
      headers: { 'x-api-key': issued.plaintext, 'content-type': 'application/json', ...(gzip ? { 'accept-encoding': 'gzip' } : {}) },
      body: JSON.stringify({ ids }),
    }),
  );
  if (gzip) expect(res.headers.get('content-encoding')).toBe('gzip');
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, text: new TextDecoder().decode(gzip ? gunzipSync(bytes) : bytes) };
}

describe('masters/batch over serialized records', () => {
  it('gives the same bytes as over parsed records: order, duplicates, missing ids, _links', async () => {
    const data = fixtureData();
    const known = data.masters.slice(0, 6).map((m) => m.master_id);
    const ids = [known[3]!, 999_999_999, ...known, known[0]!, 888_888_888];

    const parsed = createMemoryCatalogue(data);
    const serialized = createMemoryCatalogue(data);
    let serializedCalls = 0;
    serialized.mastersJson = async (wanted, options) => {
      serializedCalls++;
      return (await serialized.masters(wanted, options)).map((m) => ({ master_id: m.master_id, json: JSON.stringify(m) }));
    };

    const expected = await batchAnswer(parsed, ids, '/api/v1');
    const actual = await batchAnswer(serialized, ids, '/api/v1');
    expect(serializedCalls).toBe(1);
    expect(actual).toEqual(expected);
    const body = JSON.parse(actual.text) as { masters: Array<{ master_id: number; _links: { self: string } }>; missing: number[] };
    expect(body.masters.map((m) => m.master_id)).toEqual([known[3], ...known.filter((id) => id !== known[3])]);
    expect(body.masters[0]?._links.self).toBe(`http://x.test/api/v1/masters/${known[3]}`);
    expect(body.missing).toEqual([999_999_999, 888_888_888]);
    // The body is assembled as UTF-8 bytes: compressed for a client that asks, the same text.
    expect(await batchAnswer(serialized, ids, '/api/v1', true)).toEqual(expected);
  });
  it('gives the same bytes whatever order the catalogue hands the records over in', async () => {
    const data = fixtureData();
    const known = data.masters.slice(0, 4).map((m) => m.master_id);
    expect(known).toHaveLength(4);
    // Found and missing ids interleaved, and a duplicate: the answer keeps request order.
    const ids = [known[2]!, 777_777_777, known[1]!, 999_999_999, known[0]!, known[2]!, known[3]!];
    const expected = await batchAnswer(createMemoryCatalogue(data), ids, '/api/v1');
    const orders: Record<string, (found: MasterData[], wanted: number[]) => MasterData[]> = {
      request: (found, wanted) => wanted.flatMap((id) => found.filter((m) => m.master_id === id)),
      reversed: (found, wanted) => wanted.flatMap((id) => found.filter((m) => m.master_id === id)).reverse(),
      'one swapped': (found, wanted) => {
        const inOrder = wanted.flatMap((id) => found.filter((m) => m.master_id === id));
        return [inOrder[1]!, inOrder[0]!, ...inOrder.slice(2)];
      },
    };
    for (const [name, order] of Object.entries(orders)) {
      const serialized = createMemoryCatalogue(data);
      serialized.mastersJson = async (wanted, options) =>
        order(await serialized.masters(wanted, options), wanted).map((m) => ({ master_id: m.master_id, json: JSON.stringify(m) }));
      expect(await batchAnswer(serialized, ids, '/api/v1'), name).toEqual(expected);
    }
    expect(JSON.parse(expected.text).missing).toEqual([777_777_777, 999_999_999]);
  });
});

describe('masters/{id} over serialized records', () => {
  async function masterAnswer(catalogue: Catalogue, path: string): Promise<{ status: number; text: string }> {
    const accounts = createMemoryAccounts();
    const service = createService({ catalogue, accounts, limiter: createMemoryLimiter(), logger: { log() {} } }, { baseUrl: 'http://x.test' });
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'contract_2000', environment: 'test' }, new Date());
    const res = await service.fetch(new Request(`http://x.test${path}`, { headers: { 'x-api-key': issued.plaintext } }));
    const text = await res.text();
    // The request id differs per answer; the rest must not.
    return { status: res.status, text: text.replace(/"request_id":"[^"]+"/, '"request_id":"…"') };
  }

  it('gives the same bytes as over parsed records, and the same 404', async () => {
    const data = fixtureData();
    const parsed = createMemoryCatalogue(data);
    const serialized = createMemoryCatalogue(data);
    let serializedCalls = 0;
    serialized.mastersJson = async (wanted, options) => {
      serializedCalls++;
      return (await serialized.masters(wanted, options)).map((m) => ({ master_id: m.master_id, json: JSON.stringify(m) }));
    };
    for (const path of ['/api/v1/masters/113', '/api/v1/masters/999999999']) {
      expect(await masterAnswer(serialized, path)).toEqual(await masterAnswer(parsed, path));
    }
    expect(serializedCalls).toBe(2);
  });
});
