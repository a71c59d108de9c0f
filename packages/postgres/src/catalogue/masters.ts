/** Master records and the per-master dossier, assembled by core's functions from fetched rows. */
import {
  type AbortProbe,
  abortProbeOf,
  type CallOptions,
  type MasterData,
  type MasterDetail,
  type MasterDossierData,
  type MasterJson,
  type MasterRow,
  type ReleaseRow,
} from '@catalogue/core';
import { MAX_RELEASES, mapLookup, masterDossierOf, masterRecordOf, releasesOf } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import { lookupOf, ReferencedIds } from './lookup.js';
import type { Reader } from './reader.js';
import type { RecordCache } from './record-cache.js';
import type { StoredRecords } from './stored-records.js';

type Ref = [id: number, slug: string | null, name: string];

/** What the master record reads use: the pool, its backstops, the joined stored-record reads and the kept records. */
export interface MasterReads {
  sql: Sql;
  read: Reader;
  stored: StoredRecords;
  cache?: RecordCache | undefined;
}

/**
 * Master records in the order of `ids` (each once), missing ids left out, as JSON text. One
 * round trip reads the stored records (master_records, rebuilt by the writer's finish()) as
 * the text they were stored as, joined with other requests' small reads of the same turn
 * (stored-records.ts); a master written since then has none yet and is assembled live (a
 * second round trip), then serialized the same way the stored ones were.
 *
 * `lifetime` is the request's: it is only asked whether it ended (`abortProbeOf`), so no
 * AbortSignal is made for it, whether the records come from the cache or a query (issue 14).
 */
export async function masterJsonsByIds(reads: MasterReads, ids: readonly number[], lifetime?: CallOptions): Promise<MasterJson[]> {
  const { sql, read, stored, cache } = reads;
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  let wanted = unique;
  const byId = new Map<number, string>();
  const abort = abortProbeOf(lifetime);
  let kept: MasterJson[] = [];
  const keptAt = cache?.currentGeneration ?? null;
  if (cache && keptAt !== null) {
    wanted = [];
    for (const id of unique) {
      const text = cache.get(id);
      if (text === undefined) wanted.push(id);
      else kept.push({ master_id: id, json: text });
    }
  }
  // The records not kept, with the database's generation (no ids: the generation alone, one
  // small statement joined with the turn's other reads).
  let { records: rows, generation } = await stored.byIds(wanted, abort);
  cache?.observe(generation);
  if (kept.length > 0 && generation !== keptAt) {
    // The kept records are of another generation than the database answered: read them there
    // too, all in one statement (one generation).
    kept = [];
    ({ records: rows, generation } = await stored.byIds(unique, abort));
    cache?.observe(generation);
  } else if (kept.length > 0 && wanted.length === 0) {
    // Every id kept, of the generation the database is at (a warm batch): straight into the
    // answer, no map of 500 entries to fill and read back (issue 14).
    return kept;
  }
  for (const record of kept) byId.set(record.master_id, record.json);
  for (const row of rows) {
    byId.set(row.master_id, row.json);
    // Only stored records are kept: a master assembled live has changed since the last finish().
    cache?.set(row.master_id, row.json, generation);
  }
  const wantedNow = kept.length > 0 ? wanted : unique;
  if (rows.length < wantedNow.length) {
    const unassembled = wantedNow.filter((id) => !byId.has(id));
    // assembleMasters leaves out ids with no master: those are the missing ones.
    for (const record of await assembleMasters(sql, read, unassembled, abort)) byId.set(record.master_id, JSON.stringify(record));
  }
  const found: MasterJson[] = [];
  for (const id of unique) {
    const json = byId.get(id);
    if (json !== undefined) found.push({ master_id: id, json });
  }
  return found;
}

export async function mastersByIds(reads: MasterReads, ids: readonly number[], lifetime?: CallOptions): Promise<MasterData[]> {
  return (await masterJsonsByIds(reads, ids, lifetime)).map((found) => JSON.parse(found.json) as MasterData);
}

/**
 * Assembles master records from the catalogue tables in one round trip: the masters with their
 * main releases and the slug and name of every artist and label they reference (the ids
 * ReferencedIds.masters().releases() collects, read from the documents in SQL). Used for
 * masters without a stored record, and by finish() to build the stored ones.
 */
export async function assembleMasters(sql: Sql, read: Reader, ids: readonly number[], abort?: AbortProbe): Promise<MasterData[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const [found] = await read(
    abort,
    () => sql<Array<{ rows: Array<{ master: MasterRow; main_release: ReleaseRow | null }>; artists: Ref[]; labels: Ref[] }>>`
    WITH found AS (
      SELECT m.doc AS master, r.doc AS main_release
      FROM masters m LEFT JOIN releases r ON r.release_id = m.main_release_id
      WHERE m.master_id = ANY(${unique}::int[])
    ),
    artist_ids AS (
      SELECT DISTINCT (credit->>'discogs_id')::int AS id
      FROM found, jsonb_array_elements(
        (master->'artists') || coalesce(main_release->'artists', '[]') || coalesce(main_release->'extra_artists', '[]')
      ) AS credit
    ),
    label_ids AS (
      SELECT DISTINCT (credit->>'discogs_id')::int AS id
      FROM found, jsonb_array_elements(coalesce(main_release->'labels', '[]')) AS credit
    )
    SELECT
      (SELECT coalesce(json_agg(json_build_object('master', master, 'main_release', main_release)), '[]') FROM found) AS rows,
      (SELECT coalesce(json_agg(json_build_array(a.discogs_id, a.slug, a.name)), '[]')
         FROM artists a WHERE a.discogs_id IN (SELECT id FROM artist_ids)) AS artists,
      (SELECT coalesce(json_agg(json_build_array(l.discogs_id, l.slug, l.name)), '[]')
         FROM labels l WHERE l.discogs_id IN (SELECT id FROM label_ids)) AS labels`,
  );
  if (!found) return [];
  const refs = (list: Ref[]) => new Map(list.map(([id, slug, name]) => [id, { slug: slug ?? '', name }]));
  const lookup = mapLookup({ artist: refs(found.artists), label: refs(found.labels) });
  return found.rows.map((row) => masterRecordOf(row.master, row.main_release, lookup));
}

export async function masterDossier(sql: Sql, read: Reader, id: number, abort?: AbortProbe): Promise<MasterDossierData | null> {
  const masters = await read(abort, () => sql<Array<{ doc: MasterRow }>>`SELECT doc FROM masters WHERE master_id = ${id}`);
  const master = masters[0]?.doc;
  if (!master) return null;
  const firstArtist = master.artists[0];
  const [releases, artistMasters] = await Promise.all([
    read(abort, () => sql<Array<{ doc: ReleaseRow }>>`SELECT doc FROM releases WHERE master_id = ${id} ORDER BY release_id`),
    // Related masters are the first 10 others by year desc then id: 11 rows always hold them.
    firstArtist
      ? read(
          abort,
          () => sql<Array<{ doc: MasterRow }>>`
          SELECT m.doc FROM master_artists ma JOIN masters m ON m.master_id = ma.master_id
          WHERE ma.artist_id = ${firstArtist.discogs_id}
          ORDER BY m.year DESC NULLS LAST, m.master_id LIMIT 11`,
        )
      : Promise.resolve([] as Array<{ doc: MasterRow }>),
  ]);
  const releaseRows = releases.map((row) => row.doc);
  const lookup = await lookupOf(sql, read, new ReferencedIds().masters([master]).releases(releaseRows), abort);
  return masterDossierOf({ master, releases: releaseRows, artistMasters: artistMasters.map((row) => row.doc), lookup });
}

/**
 * The record, releases and release count of many masters in three queries whatever their
 * number (an artist's v2 discography): the records (stored or kept, see masterJsonsByIds), the
 * first MAX_RELEASES releases of each in the dossier's order with each master's count, and the
 * names and slugs their credits reference. The per-master dossier took three or four queries
 * per master, which a 16-client load of v2 artist pages turned into 503 pool_exhausted.
 */
export async function masterDetailsByIds(reads: MasterReads, ids: readonly number[], lifetime?: CallOptions): Promise<MasterDetail[]> {
  const { sql, read } = reads;
  const records = await masterJsonsByIds(reads, ids, lifetime);
  if (records.length === 0) return [];
  const found = records.map((record) => record.master_id);
  const abort = abortProbeOf(lifetime);
  // COLLATE "C": byte order, which is the code-unit order core's byReleasedThenId sorts by.
  const rows = await read(
    abort,
    () => sql<Array<{ master_id: number; doc: ReleaseRow; n: string }>>`
    SELECT master_id, doc, n FROM (
      SELECT master_id, doc, count(*) OVER (PARTITION BY master_id) AS n,
             row_number() OVER (PARTITION BY master_id ORDER BY released COLLATE "C" NULLS LAST, release_id) AS rn
      FROM releases WHERE master_id = ANY(${found}::int[])
    ) firsts
    WHERE rn <= ${MAX_RELEASES}`,
  );
  const releases = new Map<number, ReleaseRow[]>();
  const counts = new Map<number, number>();
  for (const row of rows) {
    const list = releases.get(row.master_id);
    if (list) list.push(row.doc);
    else releases.set(row.master_id, [row.doc]);
    counts.set(row.master_id, Number(row.n));
  }
  const lookup = await lookupOf(sql, read, new ReferencedIds().releases(rows.map((row) => row.doc)), abort);
  return records.map((record) => ({
    master: JSON.parse(record.json) as MasterData,
    ...releasesOf(releases.get(record.master_id) ?? [], lookup, counts.get(record.master_id) ?? 0),
  }));
}
