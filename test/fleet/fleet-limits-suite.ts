/**
 * The limits of docs/decisions.md §2 and §8 held by a fleet (issue 27, item 7): three host
 * processes (two Node, one Bun) on one PostgreSQL database and one limit store, spikes fired at
 * all of them at once, each against a fresh customer, and the store or a host killed under them.
 *
 * `describeFleetLimits(name, openStore)` is the whole run on any limit store the hosts reach
 * through their environment: a single redis-server (fleet-limits.test.ts) or, with its helper,
 * a Redis Cluster — one more call with a store that kills and restarts the cluster.
 *
 * Rows a–c expect no `ratelimit.fail_open` line in any host's output: the store is up and answers
 * in microseconds, so a host that fails open there lets quota, burst or concurrency leak
 * (spec, Limits rule 9: fail open only if the store is unreachable).
 */
import { type Accounts, type LogRecord, monthOf, newKeyRecord, TIERS } from '@catalogue/core';
import { generateCatalogue } from '@catalogue/importer/generate';
import { createPostgresAccounts } from '@catalogue/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';
import { issueCustomerOverHttp } from '../support/admin-keys.js';
import { FLEET_ADMIN_TOKEN, type FleetHost, failOpens, fleetEnv, pollUntil, startFleetHost } from './fleet.js';
import { roundRobin, type SpikeAnswer, type SpikeClient, spikeClient, tally } from './spike.js';

/** The limit store the hosts share, as the test owns it. */
export interface FleetLimitStore {
  /** What each host's environment gets to reach it (REDIS_URL, or a cluster's variables). */
  env: Record<string, string>;
  /** SIGKILL every server of the store: what it held is gone. */
  kill(): Promise<void>;
  /** Starts it again, empty, where the hosts look for it. */
  start(): Promise<void>;
}

/** A counted route that needs no catalogue rows. */
const COUNTED = '/api/v1/dossier/manifest';
/** Calls of row e's customer made right after the start, on the hosts row d leaves alive. */
const FIRST_CALLS = 20;
const CATALOGUE = generateCatalogue({ scale: { artists: 300, labels: 40, festivals: 4, masters: 1_000, bandcampArtists: 20 } });
/** Row c's body: 500 masters read from PostgreSQL per request (the hosts keep no record cache). */
const BATCH = JSON.stringify({ ids: CATALOGUE.masters.slice(0, 500).map((m) => m.master_id) });

/**
 * The most admitted requests holding a concurrency slot at one instant, from the hosts' own
 * access lines. A line is written when the answer is ready; `time` (whole ms) is when, and
 * `ms - gate_ms` how long the request had been past admission. Each request's slot (a lease in
 * the store) is taken before its host learns it was admitted, and released after its line is
 * written: the release is queued in that same turn and leaves the host at the turn's end. So the
 * span [written - (ms - gate_ms), written] lies inside the lease. `time` is the ms the line was
 * written in, rounded down, and ms, gate_ms are rounded to 0.1 ms: the span used is shrunk by
 * both roundings, [time + 1 - (ms - gate_ms) + 0.1, time], which stays inside the lease
 * (empty, and skipped, for a request that held its slot under 1.1 ms). Spans inside leases can
 * only under-count the leases held at once, never over-count them: more than `cap` here is a
 * leak. All hosts run on one machine, so their `time`s share one clock.
 */
export function mostHeldAtOnce(lines: readonly LogRecord[]): { most: number; spans: number } {
  const edges: Array<[number, number]> = [];
  for (const line of lines) {
    const written = Date.parse(line.time as string);
    const held = (line.ms as number) - (line.gate_ms as number);
    const from = written + 1 - held + 0.1;
    if (from > written) continue;
    edges.push([from, 1], [written, -1]);
  }
  // At one instant, starts before ends: spans that touch both hold a lease then.
  edges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let held = 0;
  let most = 0;
  for (const [, step] of edges) {
    held += step;
    most = Math.max(most, held);
  }
  return { most, spans: edges.length / 2 };
}

export function describeFleetLimits(name: string, openStore: () => Promise<FleetLimitStore>): void {
  describe(name, () => {
    let db: TestDatabase;
    let accounts: Accounts;
    let store: FleetLimitStore;
    let env: Record<string, string>;
    /** node-1 (row d kills it, row e replaces it), node-2, bun. */
    const hosts: FleetHost[] = [];
    let client: SpikeClient;
    let restartCustomer: { key: string; customerId: string };
    const bases = () => hosts.map((host) => host.base);
    const month = () => monthOf(Date.now());
    const durable = async (customerId: string) =>
      (await db.sql<Array<{ calls: number }>>`SELECT count::int AS calls FROM usage_months WHERE customer_id = ${customerId} AND month = ${month()}`)[0]
        ?.calls ?? 0;
    const issue = (host: FleetHost, body: Record<string, unknown>) => issueCustomerOverHttp(host.base, FLEET_ADMIN_TOKEN, body);
    /**
     * Answers to the row's spike, with the fail-opens every host logged meanwhile. Each host's
     * sockets are opened just before (a host closes idle keep-alive sockets after a few seconds).
     */
    async function spikeOf(
      requests: Parameters<SpikeClient['fire']>[0],
    ): Promise<{ answers: SpikeAnswer[]; failOpens: Record<string, number>; marks: number[] }> {
      await Promise.all(hosts.map((host) => client.open(host.base, requests.filter((r) => r.base === host.base).length)));
      const marks = hosts.map((host) => host.mark());
      const answers = await client.fire(requests);
      await Promise.all(hosts.map((host) => host.settle()));
      return { answers, failOpens: failOpens(hosts, marks), marks };
    }
    /** `n` counted calls on `host`, `parallel` at a time (under the contract tier's 10 at once); their statuses. */
    async function calls(host: FleetHost, key: string, n: number, parallel = 3): Promise<number[]> {
      const statuses: number[] = [];
      for (let done = 0; done < n; done += parallel) {
        const batch = Array.from({ length: Math.min(parallel, n - done) }, async () => {
          const response = await fetch(`${host.base}${COUNTED}`, { headers: { 'x-api-key': key } });
          await response.arrayBuffer();
          return response.status;
        });
        statuses.push(...(await Promise.all(batch)));
      }
      return statuses;
    }
    async function readiness(host: FleetHost): Promise<number> {
      const response = await fetch(`${host.base}/readyz`);
      await response.arrayBuffer();
      return response.status;
    }
    async function usageOn(host: FleetHost, key: string): Promise<number> {
      const response = await fetch(`${host.base}/api/v1/usage`, { headers: { 'x-api-key': key } });
      return ((await response.json()) as { calls: number }).calls;
    }

    beforeAll(async () => {
      db = await createPostgresDatabase({ max: 2 });
      // Migrated here, so the Node hosts (which migrate at start, under an advisory lock) find
      // the schema current and the Bun host (which never migrates) finds it at all.
      await loadCatalogue(db, CATALOGUE, null);
      accounts = createPostgresAccounts(db.sql);
      store = await openStore();
      env = fleetEnv(db.url, { ...store.env, CATALOGUE_CACHE_MB: '0' });
      // Concurrent starts are fine (the migrations are current); every host that started is kept
      // for afterAll to stop, even when another failed.
      const started = await Promise.allSettled([
        startFleetHost('node-1', 'node', env),
        startFleetHost('node-2', 'node', env),
        startFleetHost('bun', 'bun', env),
      ]);
      for (const outcome of started) if (outcome.status === 'fulfilled') hosts.push(outcome.value);
      for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
      client = spikeClient();
      // Row e needs calls counted and flushed before it kills the store. Made now, on node-2
      // and bun, the hosts' first minute jobs flush them while rows a–d run, instead of row e
      // waiting a minute of its own (the jobs interval is fixed: host-kit's JOBS_INTERVAL_MS).
      restartCustomer = await issue(hosts[1] as FleetHost, { email: 'restart@fleet.example' });
      const first = [
        ...(await calls(hosts[1] as FleetHost, restartCustomer.key, FIRST_CALLS / 2)),
        ...(await calls(hosts[2] as FleetHost, restartCustomer.key, FIRST_CALLS / 2)),
      ];
      expect(first.every((status) => status === 200)).toBe(true);
    }, 150_000);

    afterAll(async () => {
      client?.close();
      await Promise.all(hosts.map((host) => host.kill()));
      await store?.kill();
      await db?.drop();
    });

    it('a. quota: 300 calls left, 600 at once over the fleet → exactly 300 × 200 and 300 × 429 quota, no fail-open', async () => {
      const { key, customerId } = await issue(hosts[0] as FleetHost, { email: 'quota@fleet.example', tier: 'self_serve_299' });
      // Concurrency counts per key (5 on this tier) and quota per customer: 120 keys of the one
      // customer, 5 requests each, so that only the quota can refuse. Each key's 5 go to one host
      // (request i to host i mod 3, key 3 * (i div 15) + i mod 3): a host looks up 40 keys, not 120.
      const keys = [key];
      for (let i = 1; i < 120; i++) {
        const made = newKeyRecord('live', new Date());
        await accounts.addKey(customerId, made.record);
        keys.push(made.plaintext);
      }
      await accounts.addUsage(customerId, 'live', month(), TIERS.self_serve_299.quotaPerMonth - 300);
      const spike = await spikeOf(roundRobin(bases(), 600, (i) => ({ method: 'GET', path: COUNTED, key: keys[3 * Math.floor(i / 15) + (i % 3)] as string })));
      expect({ answers: tally(spike.answers), failOpens: spike.failOpens }).toEqual({ answers: { '200': 300, '429 quota': 300 }, failOpens: {} });
    });

    it('b. burst 150/min: 300 at once over the fleet → exactly 150 × 200 and 150 × 429 burst, no fail-open', async () => {
      const { key } = await issue(hosts[0] as FleetHost, { email: 'burst@fleet.example', limits: { burst_per_minute: 150, concurrency: 1000 } });
      const spike = await spikeOf(roundRobin(bases(), 300, () => ({ method: 'GET', path: COUNTED, key })));
      expect({ answers: tally(spike.answers), failOpens: spike.failOpens }).toEqual({ answers: { '200': 150, '429 burst': 150 }, failOpens: {} });
    });

    it('c. concurrency 4: 240 batches of 500 at once over the fleet → never more than 4 admitted at once in the hosts’ own access lines, no fail-open', async () => {
      const { key } = await issue(hosts[0] as FleetHost, { email: 'concurrency@fleet.example', limits: { concurrency: 4, burst_per_minute: 100_000 } });
      const spike = await spikeOf(roundRobin(bases(), 240, () => ({ method: 'POST', path: '/api/v1/masters/batch', key, body: BATCH })));
      const counts = tally(spike.answers);
      expect(Object.keys(counts).filter((label) => label !== '200' && label !== '429 concurrency')).toEqual([]);
      const admitted = hosts.flatMap((host, i) =>
        host.records(spike.marks[i]).filter((r) => r.kind === 'http.access' && r.key_prefix === key.slice(0, 12) && r.status === 200),
      );
      // Every admitted answer has its line, and no line is missing from the count.
      expect(admitted.map((r) => r.request_id).sort()).toEqual(
        spike.answers
          .filter((a) => a.status === 200)
          .map((a) => a.requestId)
          .sort(),
      );
      const { most, spans } = mostHeldAtOnce(admitted);
      const seen = `answers ${JSON.stringify(counts)}, spans ${spans} of ${admitted.length}, fail-opens ${JSON.stringify(spike.failOpens)}`;
      expect(spans, seen).toBeGreaterThan(0);
      expect(most, seen).toBeLessThanOrEqual(4);
      expect(spike.failOpens, seen).toEqual({});
    });

    it('d. kill -9: 200 calls on one Node host, then SIGKILL → usage_months holds all 200 within 75 s (the other hosts’ minute jobs)', async () => {
      const victim = hosts[0] as FleetHost;
      const { key, customerId } = await issue(victim, { email: 'killed@fleet.example' });
      const statuses = await calls(victim, key, 200, 8);
      expect(tally(statuses.map((status) => ({ status })))).toEqual({ '200': 200 });
      await victim.kill();
      expect(await pollUntil(() => durable(customerId), 200, 75_000)).toBe(200);
    }, 100_000);

    it('e. Redis restart: calls flushed, the store killed and started empty, more calls → /usage on every host equals the calls made, no 5xx', async () => {
      const { key, customerId } = restartCustomer;
      expect(await pollUntil(() => durable(customerId), FIRST_CALLS, 75_000)).toBe(FIRST_CALLS);
      // Three hosts again: a new Node host in place of the one row d killed.
      if (hosts[0]?.name === 'node-1') {
        // Row d killed it; when row d was filtered out, stop it here rather than leave it running.
        await hosts[0].kill();
        hosts[0] = await startFleetHost('node-1 again', 'node', env);
      }
      const sinceKill = hosts.map((host) => host.mark());
      await store.kill();
      const during = (await Promise.all(hosts.map((host) => calls(host, key, 10, 1)))).flat();
      await store.start();
      // Each host's connection is back (its readiness pings the store) before the last calls.
      for (const [i, host] of hosts.entries()) {
        const status = await pollUntil(() => readiness(host), 200, 30_000);
        // A host still not ready says which it is, what /readyz says and what it logged since the kill.
        const said = status === 200 ? '' : `${await (await fetch(`${host.base}/readyz`)).text()} ${JSON.stringify(host.records(sinceKill[i]).slice(-5))}`;
        expect([host.name, status, said]).toEqual([host.name, 200, '']);
      }
      const after = (await Promise.all(hosts.map((host) => calls(host, key, 10, 1)))).flat();
      const made = FIRST_CALLS + during.length + after.length;
      // Fail-open is allowed while the store is down; an error answer is not.
      expect(tally([...during, ...after].map((status) => ({ status })))).toEqual({ '200': made - FIRST_CALLS });
      for (const host of hosts) expect([host.name, await pollUntil(() => usageOn(host, key), made, 30_000)]).toEqual([host.name, made]);
    }, 150_000);
  });
}
