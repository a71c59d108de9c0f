/**
 * The search routes with typos (issue 29), on the memory catalogue and on PostgreSQL alike:
 * `corrected` in every answer ({} when nothing was corrected), on v1 and v2, kept across the
 * pages of a corrected query, and the answer of a store without searchPage.
 */
import { createService, issueCustomerKey } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureData } from '../support/fixture-data.js';
import { STORES, type StoreService } from '../support/stores.js';

interface SearchBody {
  hits: Array<{ type: string; id: number; name: string }>;
  corrected: Record<string, string>;
  next_cursor: string | null;
}

describe.each(STORES)('search with typos, on %s', (_store, open) => {
  let s: StoreService;
  beforeAll(async () => {
    s = await open();
  }, 120_000);
  afterAll(() => s?.close());
  const search = async (path: string): Promise<SearchBody> => {
    const response = await s.fetch(path, { headers: { 'x-api-key': s.key } });
    expect(response.status, path).toBe(200);
    return (await response.json()) as SearchBody;
  };

  it.each(['/api/v1', '/api/v2'])('%s/search says which words it corrected, and {} when none', async (base) => {
    const typo = await search(`${base}/search?q=vince%20watsn%20moments`);
    expect(typo.hits[0]).toMatchObject({ type: 'master', name: 'Moments In Time' });
    expect(typo.corrected).toEqual({ watsn: 'watson' });
    const persuader = await search(`${base}/search?q=persuadr`);
    // The Persuader's master Stockholm (its releases make it the more popular), then the artist.
    expect(persuader.hits.slice(0, 2)).toMatchObject([
      { type: 'master', name: 'Stockholm' },
      { type: 'artist', name: 'The Persuader' },
    ]);
    expect(persuader.corrected).toEqual({ persuadr: 'persuader' });
    // Typed correctly, a word under 5 characters, or no q: nothing corrected.
    for (const query of ['q=vince%20watson%20moments', 'q=nigt', 'type=master']) expect((await search(`${base}/search?${query}`)).corrected).toEqual({});
  });

  it('pages a corrected query to the end, each page saying what it corrected', async () => {
    const first = await search('/api/v1/search?q=marla%20vanse&limit=1');
    expect(first.corrected).toEqual({ vanse: 'vance' });
    const seen = first.hits.map((hit) => hit.id);
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await search(`/api/v1/search?q=marla%20vanse&limit=1&cursor=${cursor}`);
      expect(page.corrected).toEqual({ vanse: 'vance' });
      seen.push(...page.hits.map((hit) => hit.id));
      cursor = page.next_cursor;
    }
    const all = await search('/api/v1/search?q=marla%20vanse&limit=100');
    expect(seen).toEqual(all.hits.map((hit) => hit.id));
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });
});

describe('a store without searchPage', () => {
  it('answers its search hits, with nothing corrected', async () => {
    const catalogue = createMemoryCatalogue(fixtureData());
    delete catalogue.searchPage;
    const accounts = createMemoryAccounts();
    const service = createService({ catalogue, accounts, limiter: createMemoryLimiter(), logger: { log() {} } }, { baseUrl: 'http://x.test' });
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date());
    const response = await service.fetch(new Request('http://x.test/api/v1/search?q=moments', { headers: { 'x-api-key': issued.plaintext } }));
    const body = (await response.json()) as SearchBody;
    expect(body.hits[0]).toMatchObject({ name: 'Moments In Time' });
    expect(body.corrected).toEqual({});
  });
});
