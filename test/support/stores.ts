/**
 * The whole service on either store, behind one shape, so a test can ask both the same
 * questions: `onMemory()` is the memory service of service.ts; `onPostgres()` has its Catalogue
 * and Accounts on a throwaway PostgreSQL database loaded with the same fixture (fixture-data.ts).
 * The limiter stays in memory on both (limits are not what these tests look at).
 */
import { createService, issueCustomerKey, type LogRecord, type Service, type ServiceConfig } from '@catalogue/core';
import { createManualClock, createMemoryLimiter } from '@catalogue/core/memory';
import { createPostgresAccounts, createPostgresCatalogue } from '@catalogue/postgres';
import { createPostgresDatabase, loadCatalogue } from '../conformance/databases.js';
import { fixtureData } from './fixture-data.js';
import { setup } from './service.js';

export interface StoreService {
  service: Service;
  logs: LogRecord[];
  /** A contract key with limits no test reaches. */
  key: string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

const BASE_URL = 'http://catalogue.test';
const NOW = '2026-06-29T12:00:00Z';
const CONFIG = { adminToken: 'test-admin-token', secretKey: '5f'.repeat(32), publicRateLimitPerMinute: 1_000_000 } satisfies Partial<ServiceConfig>;
const KEY = {
  email: 'stores@example.com',
  tier: 'contract_2000',
  environment: 'test',
  limits: { burst_per_minute: 1_000_000, quota_per_month: 1_000_000_000, concurrency: 100 },
} as const;

function fetcher(service: Service) {
  return (path: string, init?: RequestInit) => service.fetch(new Request(BASE_URL + path, init), { clientIp: '192.0.2.1' });
}

export async function onMemory(): Promise<StoreService> {
  const t = setup({ now: NOW, config: CONFIG });
  const key = await t.issueKey(KEY);
  return { service: t.service, logs: t.logs, key, fetch: fetcher(t.service), close: async () => undefined };
}

export async function onPostgres(): Promise<StoreService> {
  const db = await createPostgresDatabase();
  try {
    await loadCatalogue(db, fixtureData());
    const accounts = createPostgresAccounts(db.sql);
    const clock = createManualClock(NOW);
    const logs: LogRecord[] = [];
    const service = createService(
      { catalogue: createPostgresCatalogue(db.sql), accounts, limiter: createMemoryLimiter(), clock, logger: { log: (record) => logs.push(record) } },
      { ...CONFIG, baseUrl: BASE_URL },
    );
    const issued = await issueCustomerKey(accounts, KEY, new Date(clock.now()));
    return { service, logs, key: issued.plaintext, fetch: fetcher(service), close: () => db.drop() };
  } catch (error) {
    // A failed set-up must not leave its database behind (afterAll has nothing to close yet).
    await db.drop();
    throw error;
  }
}

export const STORES = [
  ['memory', onMemory],
  ['PostgreSQL', onPostgres],
] as const;
