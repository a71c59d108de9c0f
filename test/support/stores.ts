/**
 * The whole service on either store, behind one shape, so a test can ask both the same
 * questions: `onMemory()` has the memory ports on the core fixture (fixture-data.ts);
 * `onPostgres()` has its Catalogue and Accounts on a throwaway PostgreSQL database loaded with the
 * same fixture. The limiter stays in memory on both (limits are not what these tests look at).
 */
import { type Accounts, type Catalogue, createService, issueCustomerKey, type LogRecord, type Service, type ServiceConfig } from '@catalogue/core';
import { createManualClock, createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { createPostgresAccounts, createPostgresCatalogue } from '@catalogue/postgres';
import { createPostgresDatabase, loadCatalogue } from '../conformance/databases.js';
import { fixtureData } from './fixture-data.js';

export interface StoreService {
  service: Service;
  logs: LogRecord[];
  /** A contract key with limits no test reaches. */
  key: string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

const BASE_URL = 'http://catalogue.test';
/** A contract key whose limits no test reaches. */
const UNLIMITED_KEY = {
  email: 'stores@example.com',
  tier: 'contract_2000',
  environment: 'test',
  limits: { burst_per_minute: 1_000_000, quota_per_month: 1_000_000_000, concurrency: 100 },
} as const;
const CONFIG = { adminToken: 'test-admin-token', secretKey: '5f'.repeat(32), publicRateLimitPerMinute: 1_000_000 } satisfies Partial<ServiceConfig>;

/** The service on `catalogue` and `accounts`, with a key issued; `close` frees the store. */
export async function serviceOn(catalogue: Catalogue, accounts: Accounts, close: () => Promise<void> = async () => undefined): Promise<StoreService> {
  const clock = createManualClock('2026-06-29T12:00:00Z');
  const logs: LogRecord[] = [];
  const service = createService(
    { catalogue, accounts, limiter: createMemoryLimiter(), clock, logger: { log: (record) => logs.push(record) } },
    { ...CONFIG, baseUrl: BASE_URL },
  );
  const issued = await issueCustomerKey(accounts, UNLIMITED_KEY, new Date(clock.now()));
  return {
    service,
    logs,
    key: issued.plaintext,
    fetch: (path, init) => service.fetch(new Request(BASE_URL + path, init), { clientIp: '192.0.2.1' }),
    close,
  };
}

export function onMemory(): Promise<StoreService> {
  return serviceOn(createMemoryCatalogue(fixtureData()), createMemoryAccounts());
}

export async function onPostgres(): Promise<StoreService> {
  const db = await createPostgresDatabase();
  try {
    await loadCatalogue(db, fixtureData());
    return await serviceOn(createPostgresCatalogue(db.sql), createPostgresAccounts(db.sql), () => db.drop());
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
