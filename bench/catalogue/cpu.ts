/**
 * CPU per request of each process a route's requests use: the serving process, the PostgreSQL
 * backends of the bench database, and this (the load generator's) process. On 2 shared cores
 * with 8 clients a request's latency is mostly its wait for a core, so p95 follows the CPU
 * all three spend per request; this says which one to cut (issue 14 item 3).
 */
import postgres from 'postgres';
import { postgresCpuSeconds, postgresSecondsBetween, processCpuSeconds } from '../prodpath/cpu.js';

export interface CpuPerRequest {
  /** µs of CPU per request. */
  host: number;
  postgres: number;
  client: number;
}

interface Snapshot {
  host: number;
  postgres: Map<number, number>;
  client: number;
}

export class CpuMeter {
  readonly #admin: postgres.Sql;
  readonly #database: string;

  constructor(
    url: string,
    private readonly hostPid: number,
  ) {
    this.#admin = postgres(url, { max: 1, onnotice: () => undefined });
    this.#database = new URL(url).pathname.slice(1);
  }

  async snapshot(): Promise<Snapshot> {
    const usage = process.cpuUsage();
    return {
      host: processCpuSeconds(this.hostPid),
      postgres: await postgresCpuSeconds(this.#admin, this.#database),
      client: (usage.user + usage.system) / 1e6,
    };
  }

  perRequest(before: Snapshot, after: Snapshot, requests: number): CpuPerRequest {
    const us = (seconds: number) => (seconds * 1e6) / Math.max(1, requests);
    return {
      host: us(after.host - before.host),
      postgres: us(postgresSecondsBetween(before.postgres, after.postgres)),
      client: us(after.client - before.client),
    };
  }

  close(): Promise<void> {
    return this.#admin.end({ timeout: 5 });
  }
}
