/**
 * Testing an app that uses the catalogue entirely in memory: createTestService gives the real
 * routes, auth and limits over memory ports and a manual clock — no network, no database.
 */
import { createTestService } from '@catalogue/core/memory';
import { generateCatalogue } from '@catalogue/importer';
import { describe, expect, it } from 'vitest';
import { recordCard } from './app.js';

const data = generateCatalogue();
const master = data.masters[0] as { master_id: number; title: string };

describe('recordCard', () => {
  it('formats a master the catalogue knows', async () => {
    const t = createTestService({ data });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    const card = await recordCard((path, init) => t.fetch(path, { ...init, headers: { 'x-api-key': key } }), master.master_id);
    expect(card?.title).toBe(master.title);
    expect(card?.line.startsWith(master.title)).toBe(true);
  });

  it('answers null for a master the catalogue does not have', async () => {
    const t = createTestService({ data });
    const key = await t.issueKey();
    expect(await recordCard((path) => t.fetch(path, { headers: { 'x-api-key': key } }), 999_999_999)).toBeNull();
  });

  it('surfaces refusals, e.g. a revoked or wrong key', async () => {
    const t = createTestService({ data });
    await expect(recordCard((path) => t.fetch(path, { headers: { 'x-api-key': 'ck_test_wrong' } }), master.master_id)).rejects.toThrow(/401/);
  });
});
