/** Artist, label and festival dossiers: fetch the rows that concern the entity, assemble with core. */
import type { AbortProbe } from '@catalogue/core';
import {
  type ArtistDossier,
  type ArtistRow,
  type BandcampRow,
  type BandcampSignals,
  type FestivalDossier,
  type FestivalRow,
  kindOfClusterId,
  type LabelDossier,
  type LabelRow,
  type MasterRow,
  type ReleaseRow,
  sourceIdOfClusterId,
} from '@catalogue/core';
import { artistDossierOf, festivalDossierOf, labelDossierOf } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import type { BandcampReads } from './bandcamp.js';
import { lookupOf, ReferencedIds } from './lookup.js';
import type { Reader } from './reader.js';

type MasterWithMain = { master: MasterRow; main_release: ReleaseRow | null };

export async function artistDossier(sql: Sql, read: Reader, bandcamp: BandcampReads, clusterId: number, abort?: AbortProbe): Promise<ArtistDossier | null> {
  if (kindOfClusterId(clusterId) !== 'artist') return null;
  const id = sourceIdOfClusterId(clusterId);
  const artists = await read(abort, () => sql<Array<{ slug: string | null; doc: ArtistRow }>>`SELECT slug, doc FROM artists WHERE discogs_id = ${id}`);
  const artist = artists[0];
  if (!artist) return null;
  const [masters, festivals, bandcampRow, bandcampSignals] = await Promise.all([
    // Main masters and masters where the artist has an extra credit on any release, each once.
    read(
      abort,
      () => sql<MasterWithMain[]>`
      SELECT m.doc AS master, r.doc AS main_release
      FROM masters m LEFT JOIN releases r ON r.release_id = m.main_release_id
      WHERE m.master_id IN (
        SELECT master_id FROM master_artists WHERE artist_id = ${id}
        UNION
        SELECT x.master_id FROM release_credits c JOIN releases x ON x.release_id = c.release_id WHERE c.artist_id = ${id} AND x.master_id IS NOT NULL
      )
      ORDER BY m.master_id`,
    ),
    read(
      abort,
      () => sql<Array<{ doc: FestivalRow }>>`
      SELECT doc FROM festivals WHERE festival_id IN (SELECT festival_id FROM festival_lineups WHERE artist_id = ${id}) ORDER BY festival_id`,
    ),
    read(abort, () => sql<Array<{ doc: BandcampRow }>>`SELECT doc FROM bandcamp_artists WHERE artist_id = ${id}`),
    bandcamp.signals(id, abort),
  ]);
  const masterRows = masters.map((row) => row.master);
  const mainReleases = masters.flatMap((row) => (row.main_release ? [row.main_release] : []));
  const festivalRows = festivals.map((row) => row.doc);
  const ids = new ReferencedIds().masters(masterRows).releases(mainReleases).artistRefs(artist.doc).festivals(festivalRows);
  const lookup = await lookupOf(sql, read, ids, abort);
  return artistDossierOf({
    artist: artist.doc,
    slug: artist.slug ?? '',
    masters: masterRows,
    mainReleases,
    festivals: festivalRows,
    bandcamp: bandcampRow[0]?.doc ?? null,
    bandcampSignals: bandcampSignals satisfies BandcampSignals | null,
    lookup,
  });
}

export async function labelDossier(sql: Sql, read: Reader, clusterId: number, abort?: AbortProbe): Promise<LabelDossier | null> {
  if (kindOfClusterId(clusterId) !== 'label') return null;
  const id = sourceIdOfClusterId(clusterId);
  const labels = await read(abort, () => sql<Array<{ slug: string | null; doc: LabelRow }>>`SELECT slug, doc FROM labels WHERE discogs_id = ${id}`);
  const label = labels[0];
  if (!label) return null;
  const masters = await read(
    abort,
    () => sql<MasterWithMain[]>`
    SELECT m.doc AS master, r.doc AS main_release
    FROM master_labels ml JOIN masters m ON m.master_id = ml.master_id JOIN releases r ON r.release_id = m.main_release_id
    WHERE ml.label_id = ${id}
    ORDER BY m.master_id`,
  );
  const masterRows = masters.map((row) => row.master);
  const mainReleases = masters.flatMap((row) => (row.main_release ? [row.main_release] : []));
  const lookup = await lookupOf(sql, read, new ReferencedIds().masters(masterRows).releases(mainReleases).labelRefs(label.doc), abort);
  return labelDossierOf({ label: label.doc, slug: label.slug ?? '', masters: masterRows, mainReleases, lookup });
}

export async function festivalDossier(sql: Sql, read: Reader, clusterId: number, abort?: AbortProbe): Promise<FestivalDossier | null> {
  if (kindOfClusterId(clusterId) !== 'festival') return null;
  const id = sourceIdOfClusterId(clusterId);
  const rows = await read(abort, () => sql<Array<{ slug: string | null; doc: FestivalRow }>>`SELECT slug, doc FROM festivals WHERE festival_id = ${id}`);
  const festival = rows[0];
  if (!festival) return null;
  const lookup = await lookupOf(sql, read, new ReferencedIds().festivals([festival.doc]), abort);
  return festivalDossierOf(festival.doc, festival.slug ?? '', lookup);
}
