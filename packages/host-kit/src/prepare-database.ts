/**
 * What a host with several worker processes does once, before it forks them (WEB_CONCURRENCY,
 * docs/decisions.md §9): apply the pending migrations on DATABASE_URL, and keep one connection
 * for the demo key, which is issued once every worker listens (a start that fails writes no
 * customer, docs/decisions.md §1). Workers then build their services without migrating.
 */
import type { CustomersAndKeys, Logger } from '@catalogue/core';
import type { HostEnv } from './env.js';
import { optionalPeer } from './optional-peer.js';

export interface PreparedDatabase {
  /** Accounts on the primary's own connection: for the demo key only. */
  accounts: CustomersAndKeys;
  /** The migrations this start applied (empty when the database was current). */
  applied: string[];
  close(): Promise<void>;
}

export async function prepareDatabase(env: Pick<HostEnv, 'databaseUrl'>, logger: Logger): Promise<PreparedDatabase> {
  if (!env.databaseUrl) throw new Error('prepareDatabase needs DATABASE_URL');
  const pg = await optionalPeer(['@catalogue/postgres'], 'DATABASE_URL', () => import('@catalogue/postgres'));
  const sql = pg.connectPostgres(env.databaseUrl, { max: 1 });
  try {
    // The first guardFor fixes the backstops of every port on this pool (as service-from-env.ts).
    pg.guardFor(sql, { logger });
    const applied = await pg.migrate(sql);
    return { accounts: pg.createPostgresAccounts(sql), applied, close: () => sql.end({ timeout: 5 }) };
  } catch (error) {
    await sql.end({ timeout: 5 });
    throw error;
  }
}
