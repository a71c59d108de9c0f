/**
 * Read replicas for the catalogue (issue 17) on real streaming replication: a primary made with
 * initdb and two replicas made with pg_basebackup -R, postmasters on spare ports
 * (test/support/pg-cluster.ts). Replica B applies the WAL 1.5 s late, as a lagging replica.
 * The service is the Node host's composition (createServiceFromEnv with DATABASE_URL and
 * DATABASE_REPLICA_URLS) behind node:http.
 */
import type { CatalogueData, LogRecord } from '@catalogue/core';
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import { connectPostgres, createPostgresWriter, migrate } from '@catalogue/postgres';
import postgres, { type Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeServer, listen, type RunningServer } from '../../hosts/node/src/serve.js';
import { fixtureData } from '../support/fixture-data.js';
import { type PgCluster, startPrimary, startReplica } from '../support/pg-cluster.js';

const ADMIN_TOKEN = 'replica-admin-token-0123456789abcdef';
const READS = ['/api/v1/masters/113', '/api/v1/search?q=moments', '/api/v1/artist/discogs:3225', '/api/v1/facets?facets=genre', '/api/v2/resolve?discogs=3225'];

type Cluster = PgCluster & { remove(): void };
let primary: Cluster;
let replicaA: Cluster;
let replicaB: Cluster;
let admin: Sql;
let hosted: HostedService;
let running: RunningServer;
let key: string;
const logged: LogRecord[] = [];

async function loadFixture(url: string, data: CatalogueData): Promise<void> {
  const sql = connectPostgres(url, { max: 2 });
  await migrate(sql);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
  const writer = createPostgresWriter(sql);
  await writer.writeArtists(data.artists);
  await writer.writeLabels(data.labels);
  await writer.writeReleases(data.releases);
  await writer.writeMasters(data.masters);
  await writer.writeFestivals(data.festivals);
  await writer.writeBandcamp(data.bandcamp);
  await writer.finish();
  await sql.end({ timeout: 5 });
}

/** Calls of statements that read or write `table`, on one server, since the last reset. */
async function callsOn(cluster: PgCluster, table: string): Promise<number> {
  const sql = postgres(cluster.url('catalogue'), { max: 1, onnotice: () => undefined });
  try {
    const [row] = await sql<Array<{ calls: number }>>`
      SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_statements
      WHERE query ILIKE ${`%${table}%`} AND query NOT ILIKE '%pg_stat_statements%'`;
    return row?.calls ?? 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function resetStatements(cluster: PgCluster): Promise<void> {
  const sql = postgres(cluster.url('catalogue'), { max: 1, onnotice: () => undefined });
  await sql`SELECT pg_stat_statements_reset()`;
  await sql.end({ timeout: 5 });
}

/** Until every replica has replayed the primary's current WAL position. */
async function caughtUp(replicas: PgCluster[] = [replicaA, replicaB]): Promise<void> {
  const [{ lsn } = { lsn: '' }] = await admin<Array<{ lsn: string }>>`SELECT pg_current_wal_lsn()::text AS lsn`;
  for (const replica of replicas) {
    const sql = postgres(replica.url('catalogue'), { max: 1, onnotice: () => undefined });
    for (let i = 0; i < 200; i++) {
      const [row] = await sql<Array<{ done: boolean }>>`SELECT pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS done`;
      if (row?.done) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await sql.end({ timeout: 5 });
  }
  // One health-check interval, so the service has seen it too.
  await new Promise((resolve) => setTimeout(resolve, 1_200));
}

const get = (path: string) => fetch(`${running.url}${path}`, { headers: { 'x-api-key': key } });

beforeAll(async () => {
  primary = await startPrimary();
  admin = postgres(primary.url(), { max: 1, onnotice: () => undefined });
  await admin`CREATE DATABASE catalogue`;
  await admin.end();
  admin = postgres(primary.url('catalogue'), { max: 1, onnotice: () => undefined });
  await loadFixture(primary.url('catalogue'), fixtureData());
  replicaA = await startReplica(primary);
  replicaB = await startReplica(primary, { applyDelayMs: 1_500 });
  hosted = await createServiceFromEnv(
    {
      DATABASE_URL: primary.url('catalogue'),
      DATABASE_REPLICA_URLS: `${replicaA.url('catalogue')},${replicaB.url('catalogue')}`,
      ADMIN_TOKEN,
      LOG_LEVEL: 'error',
      // Without the in-process record cache, every master read reaches a database: the test
      // counts where reads land (test/catalogue/record-cache-on-postgres.test.ts covers the cache).
      CATALOGUE_CACHE_MB: '0',
    },
    { logger: { log: (record) => logged.push(record) } },
  );
  running = await listen(createNodeServer(hosted.service, { trustProxy: false }), 0, '127.0.0.1', 1_000);
  const issued = await fetch(`${running.url}/api/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'replicas@example.com', limits: { burst_per_minute: 1_000_000, concurrency: 100 } }),
  });
  key = ((await issued.json()) as { key: string }).key;
  await caughtUp();
}, 120_000);

afterAll(async () => {
  await running?.close();
  await hosted?.close();
  await admin?.end({ timeout: 5 });
  for (const cluster of [replicaB, replicaA, primary]) {
    await cluster?.stop('fast');
    cluster?.remove();
  }
}, 60_000);

describe('read replicas on streaming replication', () => {
  it('reads the catalogue on the replicas, spread over both, and checks keys on the primary', async () => {
    for (const cluster of [primary, replicaA, replicaB]) await resetStatements(cluster);
    for (let i = 0; i < 60; i++) expect((await get(READS[i % READS.length] as string)).status).toBe(200);
    const [onA, onB, onPrimary] = await Promise.all([callsOn(replicaA, 'master'), callsOn(replicaB, 'master'), callsOn(primary, 'master')]);
    console.info(`catalogue statements: replica A ${onA}, replica B ${onB}, primary ${onPrimary}`);
    expect(onA).toBeGreaterThan(10);
    expect(onB).toBeGreaterThan(10);
    expect(onPrimary).toBe(0);
    expect(await callsOn(primary, 'api_keys')).toBeGreaterThanOrEqual(60);
    expect((await callsOn(replicaA, 'api_keys')) + (await callsOn(replicaB, 'api_keys'))).toBe(0);
  }, 60_000);

  it('serves an import right after finish(), though a replica has not replayed it yet', async () => {
    const writer = createPostgresWriter(admin);
    const [master] = fixtureData().masters;
    await writer.writeMasters([{ ...(master as CatalogueData['masters'][number]), master_id: 990_001, title: 'Written Just Now' }]);
    await writer.finish();
    for (let i = 0; i < 10; i++) {
      const response = await get('/api/v1/masters/990001');
      expect(response.status).toBe(200);
      expect(((await response.json()) as { title: string }).title).toBe('Written Just Now');
    }
    // Once B has replayed the import (1.5 s late), it serves reads again.
    await caughtUp();
    await resetStatements(replicaB);
    for (let i = 0; i < 10; i++) expect((await get('/api/v1/masters/990001')).status).toBe(200);
    expect(await callsOn(replicaB, 'master')).toBeGreaterThan(0);
  }, 60_000);

  it('fails over with no 5xx when a replica dies mid-run, then when both do, and takes a restarted one back', async () => {
    await caughtUp();
    const statuses = new Map<number, number>();
    let stop = false;
    const client = async (i: number) => {
      for (let n = i; !stop; n++) {
        const response = await get(READS[n % READS.length] as string);
        await response.arrayBuffer();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    };
    const faults = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await replicaA.stop('kill');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await replicaB.stop('fast');
      // Reads go on a while on the primary alone, then the clients stop.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      stop = true;
    };
    await Promise.all([...Array.from({ length: 8 }, (_, i) => client(i)), faults()]);
    console.info(`answers while replicas died: ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect([...statuses.keys()]).toEqual([200]);

    await replicaA.start();
    await caughtUp([replicaA]);
    await resetStatements(replicaA);
    // Taken back by its next health check (every second): reads reach it again within a few.
    let served = 0;
    for (let round = 0; round < 30 && served === 0; round++) {
      for (let i = 0; i < READS.length; i++) expect((await get(READS[i] as string)).status).toBe(200);
      served = await callsOn(replicaA, 'master');
      if (served === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(served).toBeGreaterThan(0);
  }, 90_000);
});
