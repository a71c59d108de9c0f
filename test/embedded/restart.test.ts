/**
 * `npm start` without DATABASE_URL: the embedded PGlite default serves the demo (Discogs samples
 * + generated signals), and a key issued through the admin route survives a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../hosts/process-host.js';
import { startEmbeddedHost, stopHost } from '../support/embedded-host.js';

describe('the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-embedded-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves the demo and keeps an admin-issued key across a restart', async () => {
    const port = await freePort();
    const first = await startEmbeddedHost(dataDir, port);
    const banner = first.output();
    const adminToken = /admin token:\s+(\S+)/.exec(banner)?.[1];
    const demo = /demo key:\s+(ck_test_\S+)/.exec(banner)?.[1];
    expect(adminToken).toBeTruthy();
    expect(demo).toMatch(/^ck_test_[0-9A-Za-z]{32}$/);
    const base = `http://127.0.0.1:${port}`;

    // The printed curl example answers search hits.
    const curl = /curl -s '([^']+search[^']+)'/.exec(banner)?.[1] as string;
    const search = await fetch(curl.replace(/^http:\/\/localhost:\d+/, base), { headers: { 'x-api-key': demo as string } });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { hits: unknown[] }).hits.length).toBeGreaterThan(0);

    // Master 113 of the real Discogs sample.
    const master = await fetch(`${base}/api/v1/masters/113`, { headers: { 'x-api-key': demo as string } });
    expect(await master.json()).toMatchObject({ master_id: 113, title: 'Moments In Time', year: 2002, styles: ['Techno', 'Tech House'] });

    const issued = await fetch(`${base}/api/v1/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com' }),
    });
    expect(issued.status).toBe(201);
    const { key } = (await issued.json()) as { key: string };
    expect(await stopHost(first.child)).toBe(0);

    // A data dir from before migration 0007 has no stored master records, one from before 0010
    // search documents without fields and no credit stubs: the next start builds them.
    const countRecords = async (wipe: boolean) => {
      const { PGlite } = await import('@electric-sql/pglite');
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
      const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent');
      const db = await PGlite.create({ dataDir: join(dataDir, 'pg'), extensions: { pg_trgm, unaccent } });
      // What migrating such a data dir leaves: 0010 marks its derived data stale.
      if (wipe)
        await db.exec(
          `DELETE FROM master_records; UPDATE search_documents SET phrase_text = ''; DELETE FROM artists WHERE stub; UPDATE catalogue_state SET derived_stale = true`,
        );
      const { rows } = await db.query<{ n: number; stale: number; stubs: number }>(
        `SELECT (SELECT count(*)::int FROM master_records) AS n, (SELECT count(*)::int FROM search_documents WHERE phrase_text = '') AS stale,
                (SELECT count(*)::int FROM artists WHERE stub) AS stubs`,
      );
      await db.close();
      return rows[0];
    };
    expect(await countRecords(false)).toMatchObject({ n: expect.any(Number), stale: 0 });
    const wiped = await countRecords(true);
    expect(wiped).toMatchObject({ n: 0, stubs: 0 });
    expect(wiped?.stale).toBeGreaterThan(0);

    const second = await startEmbeddedHost(dataDir, port);
    expect(second.output()).toContain(adminToken as string);
    expect(second.output()).toContain(demo as string);
    const again = await fetch(`${base}/api/v1/masters/113`, { headers: { 'x-api-key': key } });
    expect(again.status).toBe(200);
    expect(await stopHost(second.child)).toBe(0);
    const rebuilt = await countRecords(false);
    expect(rebuilt?.n).toBeGreaterThan(0);
    expect(rebuilt?.stale).toBe(0);
    expect(rebuilt?.stubs).toBeGreaterThan(0);
  }, 240_000);
});
