/**
 * Master records kept in the serving process until the next import (issue 14 item 2): the
 * host's composition on a real database. A record once read is answered from memory (a change
 * made behind the catalogue's back is not seen), and the writer's finish() — which advances
 * the catalogue's generation with a NOTIFY — makes the next reads fetch again.
 */
import type { MasterRow } from '@catalogue/core';
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import { createPostgresWriter } from '@catalogue/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';
import { fixtureData } from '../support/fixture-data.js';

const ADMIN_TOKEN = 'record-cache-admin-token-0123456789';
let db: TestDatabase;
let hosted: HostedService;
let key: string;

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 2 });
  await loadCatalogue(db, fixtureData());
  hosted = await createServiceFromEnv({ DATABASE_URL: db.url, ADMIN_TOKEN, LOG_LEVEL: 'error' });
  const issued = await hosted.service.fetch(
    new Request('http://catalogue.test/api/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cache@example.com' }),
    }),
  );
  key = ((await issued.json()) as { key: string }).key;
}, 60_000);

afterAll(async () => {
  await hosted?.close();
  await db?.drop();
});

async function title(id: number): Promise<string> {
  const response = await hosted.service.fetch(new Request(`http://catalogue.test/api/v1/masters/${id}`, { headers: { 'x-api-key': key } }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { title: string }).title;
}

describe('master records kept until the next import, on PostgreSQL', () => {
  it('answers a record from memory once read, and reads it again after finish()', async () => {
    expect(await title(113)).toBe('Moments In Time');
    // Behind the catalogue's back: the process keeps answering what it read.
    await db.sql`UPDATE master_records SET record = replace(record::text, 'Moments In Time', 'Tampered')::json WHERE master_id = 113`;
    expect(await title(113)).toBe('Moments In Time');

    const writer = createPostgresWriter(db.sql, { staging: db.staging });
    const master = fixtureData().masters.find((m) => m.master_id === 113) as MasterRow;
    await writer.writeMasters([{ ...master, title: 'Moments In Time (Remastered)' }]);
    await writer.finish();
    // The NOTIFY of finish() reaches the process within milliseconds; the poll bounds it at 5 s.
    let seen = '';
    for (let i = 0; i < 100 && seen !== 'Moments In Time (Remastered)'; i++) {
      seen = await title(113);
      if (seen !== 'Moments In Time (Remastered)') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen).toBe('Moments In Time (Remastered)');
  });
});
