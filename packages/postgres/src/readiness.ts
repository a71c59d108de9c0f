/**
 * The database's readiness probe for GET /readyz (docs/decisions.md §8, "Health and
 * readiness"): the pool reaches PostgreSQL and every migration this build knows is applied.
 * Messages say what is wrong without the URL or any credential.
 */
import type { Probe } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { Migration } from './migration.js';
import { MIGRATIONS } from './migrations.generated.js';

export function postgresProbe(sql: Sql, migrations: readonly Migration[] = MIGRATIONS): Probe {
  return {
    name: 'database',
    async check() {
      let applied: Set<string>;
      try {
        const rows = await sql<Array<{ id: string }>>`SELECT id FROM schema_migrations`;
        applied = new Set(rows.map((row) => row.id));
      } catch (error) {
        const code = (error as { code?: string }).code;
        // 42P01 undefined_table: reachable, but no migration was ever applied.
        if (code === '42P01') throw new Error('migrations not applied (run `catalogue migrate`)');
        throw new Error(`database unreachable${code ? ` (${code})` : ''}`);
      }
      const pending = migrations.map((m) => m.id).filter((id) => !applied.has(id));
      if (pending.length > 0) throw new Error(`migrations pending: ${pending.join(', ')}`);
    },
  };
}
