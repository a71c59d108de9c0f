/** Search-event beacons in memory, in arrival order (the SearchEvents slice; PostgreSQL's is accounts/search-events.ts). */
import type { SearchEvents } from '../../ports/index.js';
import type { AccountTables } from './tables.js';

export function searchEvents(tables: AccountTables): SearchEvents {
  return {
    async recordSearchEvent(event) {
      tables.searchEvents.push(structuredClone(event));
    },
  };
}
