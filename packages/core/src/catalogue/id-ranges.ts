/**
 * The ranges of the catalogue's ids. Core checks every id a request carries against them
 * before a store sees it (docs/decisions.md §6), so a store may bind any id it is handed as a 32-bit
 * integer, and every store answers an id alike:
 *
 * - above `max`, the id is malformed for its documented type: 400 naming the parameter;
 * - above `held` (but not `max`), it is well-formed but no record can have it: 404, no query.
 *
 * Master ids are positive and at most 2,000,000,000 (interface spec, Limits rule 7). Discogs
 * artist and label ids and festival ids ("source ids") share that bound: Discogs numbers all its
 * entities alike, and one bound for every id a client types keeps the rules few (README,
 * decisions). The catalogue holds every id, cluster ids included, as a signed 32-bit integer
 * (PostgreSQL `integer`, packages/postgres/migrations/0002_catalogue.sql and 0004_search.sql).
 * A cluster_id is source id·4 + 1…3 (dataset.ts), so a source id above 536,870,911 has no
 * cluster_id the catalogue can hold, and a cluster_id above the one the largest source id
 * derives was never derived at all.
 */
import { clusterIdOf } from '../dataset.js';

export interface IdRange {
  /** How a detail names the id. */
  what: string;
  /** The largest well-formed id. */
  max: number;
  /** The largest id a record in the catalogue can have. */
  held: number;
}

/** PostgreSQL `integer`: the column type of every catalogue id. */
export const MAX_HELD_ID = 2 ** 31 - 1;

export const MAX_MASTER_ID = 2_000_000_000;

export const MASTER_ID_RANGE: IdRange = { what: 'a master id', max: MAX_MASTER_ID, held: MAX_MASTER_ID };

export const SOURCE_ID_RANGE: IdRange = {
  what: 'a Discogs id',
  max: MAX_MASTER_ID,
  // The largest source id whose every cluster_id (·4 + 1, 2 or 3) fits: 536,870,911.
  held: Math.floor((MAX_HELD_ID - 3) / 4),
};

export const CLUSTER_ID_RANGE: IdRange = { what: 'a cluster_id', max: clusterIdOf('festival', MAX_MASTER_ID), held: MAX_HELD_ID };
