/**
 * An artist's v2 discography embeds each master's record and releases. Read one master at a
 * time it cost three or four queries per master, so 16 clients reading prolific artists drained
 * the 144-query cap into 503 pool_exhausted (found by bench:replicas). Batched
 * (Catalogue.masterDetails) it costs a few queries whatever the number of masters.
 */
import type { CatalogueData, MasterRow, ReleaseRow } from '@catalogue/core';
import { createService, issueCustomerKey } from '@catalogue/core';
import { createMemoryAccounts, createMemoryLimiter } from '@catalogue/core/memory';
import { createPostgresCatalogue, createPostgresWriter, migrate } from '@catalogue/postgres';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { fixtureData } from '../support/fixture-data.js';

const MASTERS = 60;
const ARTIST = 7;

function prolific(): CatalogueData {
  const data = fixtureData();
  const [template] = data.masters as [MasterRow];
  const [release] = data.releases as [ReleaseRow];
  for (let i = 0; i < MASTERS; i++) {
    const masterId = 700_000 + i;
    data.masters.push({
      ...template,
      master_id: masterId,
      title: `Session ${i}`,
      year: 1990 + (i % 30),
      main_release_id: 800_000 + i * 3,
      artists: [{ discogs_id: ARTIST, name: 'Marla Vance', anv: null, join: null, role: null }],
    });
    for (let r = 0; r < 3; r++) {
      data.releases.push({
        ...release,
        release_id: 800_000 + i * 3 + r,
        master_id: masterId,
        is_main_release: r === 0,
        released: `${1990 + (i % 30)}-0${r + 1}-00`,
        artists: [{ discogs_id: ARTIST, name: 'Marla Vance', anv: null, join: null, role: null }],
      });
    }
  }
  return data;
}

let db: TestDatabase;
let counted: Sql;
let queries = 0;

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 10 });
  await migrate(db.sql);
  const writer = createPostgresWriter(db.sql, { staging: db.staging });
  const data = prolific();
  await writer.writeArtists(data.artists);
  await writer.writeLabels(data.labels);
  await writer.writeReleases(data.releases);
  await writer.writeMasters(data.masters);
  await writer.finish();
  // Every tagged-template query the catalogue builds goes through this count.
  counted = new Proxy(db.sql, {
    apply(target, self, args) {
      queries++;
      return Reflect.apply(target, self, args);
    },
  });
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('the v2 discography on PostgreSQL', () => {
  it('reads a discography of 60 masters in a few queries, and 16 clients at once all get 200', async () => {
    const accounts = createMemoryAccounts();
    const service = createService(
      { catalogue: createPostgresCatalogue(counted), accounts, limiter: createMemoryLimiter(), logger: { log() {} } },
      { baseUrl: 'http://x.test' },
    );
    const issued = await issueCustomerKey(
      accounts,
      { email: 'a@b.co', tier: 'contract_2000', environment: 'live', limits: { concurrency: 100, burst_per_minute: 100_000 } },
      new Date(),
    );
    const get = () =>
      service.fetch(new Request(`http://x.test/api/v2/artist/${ARTIST * 4 + 1}?fields=discography`, { headers: { 'x-api-key': issued.plaintext } }));

    const before = queries;
    const response = await get();
    expect(response.status).toBe(200);
    const body = (await response.json()) as { discography: { masters: Array<{ master: { master_id: number }; release_count: number; releases: unknown[] }> } };
    const sessions = body.discography.masters.filter((m) => m.master.master_id >= 700_000);
    expect(sessions).toHaveLength(MASTERS);
    expect(sessions.every((m) => m.release_count === 3 && m.releases.length === 3)).toBe(true);
    expect(queries - before).toBeLessThanOrEqual(12);

    const statuses = await Promise.all(Array.from({ length: 16 }, async () => (await get()).status));
    expect(statuses.every((status) => status === 200)).toBe(true);
  });
});
