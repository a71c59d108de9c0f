/**
 * A whole service in memory for users' own tests: memory ports, a manual clock, and a helper
 * that issues keys of any tier.
 *
 *   const t = createTestService({ data: myCatalogue });
 *   const key = await t.issueKey({ tier: 'self_serve_49' });
 *   const res = await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } });
 */
import type { ServiceConfig } from '../config.js';
import { type CatalogueData, emptyCatalogueData } from '../dataset.js';
import { issueCustomerKey } from '../gate/issue-key.js';
import type { Environment, LimitOverrides, Logger, LogRecord, OverageMode, Probe, TierId } from '../ports/index.js';
import { createService, type RequestContextInput, type Service } from '../service.js';
import { createMemoryAccounts, type MemoryAccounts } from './accounts.js';
import { createMemoryCatalogue } from './catalogue.js';
import { createMemoryLimiter, type MemoryLimiter } from './limiter.js';
import { createManualClock, type ManualClock } from './manual-clock.js';

export interface TestServiceOptions {
  data?: CatalogueData;
  config?: Partial<ServiceConfig>;
  /** Start of the manual clock. */
  now?: number | Date | string;
  /** The gate's key cache, as on Redis (the memory limiter proves accounts epochs in process). */
  keyCache?: boolean;
  /** Readiness probes for GET /readyz (default none: always ready). */
  probes?: readonly Probe[];
}

export interface TestService {
  service: Service;
  accounts: MemoryAccounts;
  limiter: MemoryLimiter;
  clock: ManualClock;
  /** Every log record the service wrote. */
  logs: LogRecord[];
  /** Alarms raised, by kind. */
  alarms: Array<{ kind: string; detail: Record<string, unknown> }>;
  /** Issues a key and returns its plaintext. */
  issueKey(options?: { tier?: TierId; environment?: Environment; overage?: OverageMode; limits?: LimitOverrides; email?: string }): Promise<string>;
  /** fetch against the service: a path (joined to the base URL) or a full Request. */
  fetch(input: string | Request, init?: RequestInit, context?: RequestContextInput): Promise<Response>;
}

export function createTestService(options: TestServiceOptions = {}): TestService {
  const clock = createManualClock(options.now);
  const accounts = createMemoryAccounts({ now: () => clock.now() });
  const limiter = createMemoryLimiter({ authEpochs: options.keyCache === true });
  const logs: LogRecord[] = [];
  const alarms: TestService['alarms'] = [];
  const logger: Logger = { log: (record) => logs.push(record) };
  const baseUrl = options.config?.baseUrl ?? 'http://catalogue.test';
  const service = createService(
    {
      catalogue: createMemoryCatalogue(options.data ?? emptyCatalogueData()),
      accounts,
      limiter,
      clock,
      logger,
      alarm: { raise: (kind, detail) => alarms.push({ kind, detail }) },
      ...(options.probes ? { probes: options.probes } : {}),
    },
    { adminToken: 'test-admin-token', ...options.config, baseUrl },
  );
  return {
    service,
    accounts,
    limiter,
    clock,
    logs,
    alarms,
    async issueKey(o = {}) {
      const issued = await issueCustomerKey(
        accounts,
        {
          email: o.email ?? 'dev@example.com',
          tier: o.tier ?? 'self_serve_49',
          environment: o.environment ?? 'test',
          overage: o.overage ?? 'block',
          limits: o.limits ?? null,
        },
        new Date(clock.now()),
      );
      return issued.plaintext;
    },
    fetch(input, init, context) {
      const request = typeof input === 'string' ? new Request(baseUrl + input, init) : input;
      return service.fetch(request, context ?? { clientIp: '203.0.113.7' });
    },
  };
}
