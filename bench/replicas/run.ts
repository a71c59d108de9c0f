/**
 * `npm run bench:replicas`: catalogue reads through the Node host on PostgreSQL with 0, 1 and 2
 * streaming read replicas (DATABASE_REPLICA_URLS), in one run, interleaved rounds.
 *
 * A primary made with initdb and two replicas made with pg_basebackup -R (the suite's
 * test/support/pg-cluster.ts), a generated catalogue, a contract key with limits out of the
 * way, and autocannon cycling over master, search, artist-dossier (v1) and resolve paths. Prints
 * req/s, p50/p99 and where the CPU went (the host process, the primary, each replica).
 *
 * On a 2-core machine every server shares the same two cores, so replicas cannot add capacity
 * here: the figures show what routing reads to replicas costs or saves on one box, and which
 * process saturates first. On separate machines each replica brings its own cores.
 */

import { type CatalogueData, emptyCatalogueData } from '@catalogue/core';
import { generateCatalogue } from '@catalogue/importer';
import { writeCatalogue } from '@catalogue/importer/seed';
import { connectPostgres, createPostgresWriter, migrate } from '@catalogue/postgres';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { freePort } from '../../test/hosts/process-host.js';
import { spawnNodeHost } from '../../test/support/node-host-process.js';
import { type PgCluster, startPrimary, startReplica } from '../../test/support/pg-cluster.js';
import { resultFile } from '../result-file.js';
import { cpuSecondsOf } from './cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const MASTERS = Number(process.env.BENCH_MASTERS ?? 50_000);
const ADMIN_TOKEN = 'bench-replicas-admin-token-0123456789';

type Cluster = PgCluster & { remove(): void };

interface Run {
  replicas: number;
  rps: number;
  p50: number;
  p99: number;
  cpu: { host: number; primary: number; replicas: number[] };
}

function pathsOf(data: CatalogueData): string[] {
  const paths: string[] = [];
  const words = new Set<string>();
  for (const master of data.masters.slice(0, 400)) {
    paths.push(`/api/v1/masters/${master.master_id}`);
    const word = master.title.split(/\s+/)[0]?.toLowerCase();
    if (word && /^[a-z]{3,}$/.test(word)) words.add(word);
  }
  for (const word of [...words].slice(0, 100)) paths.push(`/api/v1/search?q=${word}&limit=20`);
  for (const artist of data.artists.slice(0, 200)) {
    paths.push(`/api/v1/artist/${artist.discogs_id * 4 + 1}`);
    paths.push(`/api/v2/resolve?discogs=${artist.discogs_id}`);
  }
  // Interleave the kinds so every connection sees the mix.
  return paths.sort((a, b) => ((a.length * 7919 + a.charCodeAt(a.length - 1)) % 97) - ((b.length * 7919 + b.charCodeAt(b.length - 1)) % 97));
}

async function caughtUp(primary: Cluster, replicas: Cluster[]): Promise<void> {
  const sql = postgres(primary.url('catalogue'), { max: 1, onnotice: () => undefined });
  const [{ lsn } = { lsn: '' }] = await sql<Array<{ lsn: string }>>`SELECT pg_current_wal_lsn()::text AS lsn`;
  await sql.end();
  for (const replica of replicas) {
    const r = postgres(replica.url('catalogue'), { max: 1, onnotice: () => undefined });
    for (;;) {
      const [row] = await r<Array<{ done: boolean }>>`SELECT pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS done`;
      if (row?.done) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await r.end();
  }
}

async function measure(primary: Cluster, replicas: Cluster[], count: number, paths: string[]): Promise<Run> {
  const port = await freePort();
  const used = replicas.slice(0, count);
  const host = await spawnNodeHost({
    PORT: String(port),
    DATABASE_URL: primary.url('catalogue'),
    ...(count > 0 ? { DATABASE_REPLICA_URLS: used.map((r) => r.url('catalogue')).join(',') } : {}),
    ADMIN_TOKEN,
    LOG_LEVEL: 'error',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    const issued = await fetch(`${base}/api/v1/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `bench-${count}-${Date.now()}@example.com`,
        limits: { burst_per_minute: 1_000_000, concurrency: 1000, quota_per_month: 1_000_000_000 },
      }),
    });
    const { key } = (await issued.json()) as { key: string };
    const seen = new Map<string, string>();
    const requests = paths.map((path) => ({
      method: 'GET' as const,
      path,
      headers: { 'x-api-key': key },
      onResponse: (status: number, body: string) => {
        if (status !== 200) seen.set(`${status} ${path}`, String(body).slice(0, 200));
      },
    }));
    // Give the replicas' health check a moment to admit them, then warm up.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await autocannon({ url: base, connections: CONNECTIONS, duration: 2, requests });
    const before = { host: cpuSecondsOf(host.pid), primary: cpuSecondsOf(primary.pid() as number), replicas: used.map((r) => cpuSecondsOf(r.pid() as number)) };
    const result = await autocannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests });
    const after = { host: cpuSecondsOf(host.pid), primary: cpuSecondsOf(primary.pid() as number), replicas: used.map((r) => cpuSecondsOf(r.pid() as number)) };
    if (result.non2xx > 0 && process.env.BENCH_DEBUG) {
      const bodies = new Map<string, string>();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async (_, i) => {
          for (let n = i; n < paths.length * 3; n += CONNECTIONS) {
            const response = await fetch(`${base}${paths[n % paths.length]}`, { headers: { 'x-api-key': key } });
            const text = await response.text();
            if (response.status !== 200) bodies.set(`${response.status} ${paths[n % paths.length]}`, text.slice(0, 200));
          }
        }),
      );
      console.error(seen, bodies, host.output().slice(-3000));
    }
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${count} replicas: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`);
    const share = (seconds: number) => Math.round((seconds / SECONDS) * 100);
    return {
      replicas: count,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      cpu: {
        host: share(after.host - before.host),
        primary: share(after.primary - before.primary),
        replicas: after.replicas.map((s, i) => share(s - (before.replicas[i] ?? 0))),
      },
    };
  } finally {
    await host.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main(): Promise<void> {
  const clusters: Cluster[] = [];
  try {
    const primary = await startPrimary();
    clusters.push(primary);
    const admin = postgres(primary.url(), { max: 1, onnotice: () => undefined });
    await admin`CREATE DATABASE catalogue`;
    await admin.end();
    const sql = connectPostgres(primary.url('catalogue'), { max: 4, statementTimeoutMs: 0 });
    await migrate(sql);
    const data = {
      ...emptyCatalogueData(),
      ...generateCatalogue({ scale: { masters: MASTERS, artists: Math.ceil(MASTERS / 3), labels: Math.ceil(MASTERS / 20) } }),
    };
    const startedAt = Date.now();
    await writeCatalogue(data, createPostgresWriter(sql));
    await sql.end();
    process.stderr.write(`loaded ${data.masters.length} masters in ${((Date.now() - startedAt) / 1000).toFixed(1)} s\n`);
    const replicas = [await startReplica(primary), await startReplica(primary)];
    clusters.push(...replicas);
    await caughtUp(primary, replicas);
    const paths = pathsOf(data);

    const runs: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const count of [0, 1, 2]) {
        const run = await measure(primary, replicas, count, paths);
        runs.push(run);
        process.stderr.write(`round ${round + 1}, ${count} replicas: ${Math.round(run.rps)} req/s, p99 ${run.p99} ms, cpu ${JSON.stringify(run.cpu)}\n`);
      }
    }
    const baseline = median(runs.filter((r) => r.replicas === 0).map((r) => r.rps));
    const table = resultFile('replicas');
    table.log(`catalogue reads, ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} interleaved rounds, ${MASTERS} masters (medians)`);
    table.log('| replicas | req/s | vs 0 | p50 ms | p99 ms | CPU % host | primary | replicas |');
    table.log('|---|---|---|---|---|---|---|---|');
    for (const count of [0, 1, 2]) {
      const mine = runs.filter((r) => r.replicas === count);
      const rps = median(mine.map((r) => r.rps));
      const replicaCpu = Array.from({ length: count }, (_, i) => median(mine.map((r) => r.cpu.replicas[i] ?? 0)));
      table.log(
        `| ${count} | ${Math.round(rps)} | ${(rps / baseline).toFixed(2)}× | ${median(mine.map((r) => r.p50))} | ${median(mine.map((r) => r.p99))} | ${median(mine.map((r) => r.cpu.host))} | ${median(mine.map((r) => r.cpu.primary))} | ${replicaCpu.join(' / ') || '—'} |`,
      );
    }
    table.save();
  } finally {
    for (const cluster of clusters.reverse()) {
      await cluster.stop('fast').catch(() => undefined);
      cluster.remove();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
