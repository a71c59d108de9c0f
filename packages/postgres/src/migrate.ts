/**
 * Forward-only migrations. Each pending migration runs in its own transaction that first takes
 * a transaction-level advisory lock, so instances starting together apply each migration
 * exactly once (the second waits, then sees it recorded and skips it), and a failed migration
 * leaves nothing half-applied.
 */
import type { Sql } from 'postgres';
import type { Migration } from './migration.js';
import { MIGRATIONS } from './migrations.generated.js';

export type { Migration } from './migration.js';

/** Arbitrary but fixed: every instance of this service must use the same key. */
export const MIGRATION_LOCK_KEY = 7_210_432_001;

/** Applies the pending migrations; returns the ids applied by this call. */
export async function migrate(sql: Sql, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  const applied: string[] = [];
  const ordered = [...migrations].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const migration of ordered) {
    const ran = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`;
      await tx`CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
      const done = await tx`SELECT 1 FROM schema_migrations WHERE id = ${migration.id}`;
      if (done.length > 0) return false;
      // Simple query protocol: a migration file may hold many statements.
      await tx.unsafe(migration.sql);
      await tx`INSERT INTO schema_migrations (id) VALUES (${migration.id})`;
      return true;
    });
    if (ran) applied.push(migration.id);
  }
  return applied;
}
