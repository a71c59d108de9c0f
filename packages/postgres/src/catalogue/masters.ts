/** Master records and the per-master dossier, assembled by core's functions from fetched rows. */
import type { MasterData, MasterDossierData, MasterRow, ReleaseRow } from '@catalogue/core';
import { masterDossierOf, masterRecordOf } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import { lookupOf, ReferencedIds } from './lookup.js';
import type { Reader } from './reader.js';

export async function mastersByIds(sql: Sql, read: Reader, ids: readonly number[], signal?: AbortSignal): Promise<MasterData[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await read(signal, () => sql<Array<{ master: MasterRow; main_release: ReleaseRow | null }>>`
    SELECT m.doc AS master, r.doc AS main_release
    FROM masters m LEFT JOIN releases r ON r.release_id = m.main_release_id
    WHERE m.master_id = ANY(${unique}::int[])`);
  const ids_ = new ReferencedIds().masters(rows.map((row) => row.master)).releases(rows.flatMap((row) => (row.main_release ? [row.main_release] : [])));
  const lookup = await lookupOf(sql, read, ids_, signal);
  return rows.map((row) => masterRecordOf(row.master, row.main_release, lookup));
}

export async function masterDossier(sql: Sql, read: Reader, id: number, signal?: AbortSignal): Promise<MasterDossierData | null> {
  const masters = await read(signal, () => sql<Array<{ doc: MasterRow }>>`SELECT doc FROM masters WHERE master_id = ${id}`);
  const master = masters[0]?.doc;
  if (!master) return null;
  const firstArtist = master.artists[0];
  const [releases, artistMasters] = await Promise.all([
    read(signal, () => sql<Array<{ doc: ReleaseRow }>>`SELECT doc FROM releases WHERE master_id = ${id} ORDER BY release_id`),
    // Related masters are the first 10 others by year desc then id: 11 rows always hold them.
    firstArtist
      ? read(signal, () => sql<Array<{ doc: MasterRow }>>`
          SELECT m.doc FROM master_artists ma JOIN masters m ON m.master_id = ma.master_id
          WHERE ma.artist_id = ${firstArtist.discogs_id}
          ORDER BY m.year DESC NULLS LAST, m.master_id LIMIT 11`)
      : Promise.resolve([] as Array<{ doc: MasterRow }>),
  ]);
  const releaseRows = releases.map((row) => row.doc);
  const lookup = await lookupOf(sql, read, new ReferencedIds().masters([master]).releases(releaseRows), signal);
  return masterDossierOf({ master, releases: releaseRows, artistMasters: artistMasters.map((row) => row.doc), lookup });
}
