/** Search-event beacons, one row each (the SearchEvents slice of Accounts). */
import type { SearchEvent, SearchEvents } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';

interface SearchEventRow {
  kind: SearchEvent['kind'];
  search_id: string;
  key_id: string;
  received_at: Date;
  hits: Array<{ id: number; position: number }> | null;
  q: string | null;
}

export function searchEvents(sql: Sql, guard: QueryGuard): SearchEvents {
  return {
    async recordSearchEvent(event) {
      const hits = event.kind === 'observed' ? sql.json(event.hits.map(({ id, position }) => ({ id, position }))) : null;
      const q = event.kind === 'refined' ? event.q : null;
      await guard.query(
        undefined,
        () => sql`
        INSERT INTO search_events (kind, search_id, key_id, received_at, hits, q)
        VALUES (${event.kind}, ${event.search_id}, ${event.key_id}, ${event.received_at}, ${hits}, ${q})`,
      );
    },
  };
}

/** The stored beacons in arrival order (for analysis jobs and tests). */
export async function readSearchEvents(sql: Sql): Promise<SearchEvent[]> {
  const rows = await sql<SearchEventRow[]>`SELECT kind, search_id, key_id, received_at, hits, q FROM search_events ORDER BY id`;
  return rows.map((row) =>
    row.kind === 'observed'
      ? { kind: 'observed', search_id: row.search_id, key_id: row.key_id, received_at: row.received_at, hits: row.hits ?? [] }
      : { kind: 'refined', search_id: row.search_id, key_id: row.key_id, received_at: row.received_at, q: row.q ?? '' },
  );
}
