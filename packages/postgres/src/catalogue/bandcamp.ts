/** Bandcamp reads: the signals facet, the manifest and release lookups. */
import type { AbortProbe } from '@catalogue/core';
import {
  type BandcampManifest,
  type BandcampManifestQuery,
  type BandcampObservation,
  type BandcampReleaseData,
  type BandcampReleaseQuery,
  type BandcampRow,
  type BandcampSignals,
  clusterIdOf,
  kindOfClusterId,
  sourceIdOfClusterId,
} from '@catalogue/core';
import { bandcampSignalsOf, releaseUrlKey, sortedObservations } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import type { Reader } from './reader.js';

export class BandcampReads {
  constructor(
    private readonly sql: Sql,
    private readonly read: Reader,
  ) {}

  async asOf(abort?: AbortProbe): Promise<string | null> {
    const rows = await this.read(abort, () => this.sql<Array<{ as_of: string | null }>>`SELECT to_char(as_of, 'YYYY-MM-DD') AS as_of FROM signal_state`);
    return rows[0]?.as_of ?? null;
  }

  /** bandcampSignalsOf over the artist's row, by Discogs id; null without a series. */
  async signals(artistId: number, abort?: AbortProbe): Promise<BandcampSignals | null> {
    const rows = await this.read(
      abort,
      () => this.sql<Array<{ doc: BandcampRow; slug: string | null; name: string; main_genre: string | null; as_of: string | null }>>`
      SELECT b.doc, a.slug, a.name, s.main_genre, (SELECT to_char(as_of, 'YYYY-MM-DD') FROM signal_state) AS as_of
      FROM bandcamp_artists b JOIN artists a ON a.discogs_id = b.artist_id
      LEFT JOIN artist_signals s ON s.cluster_id = a.cluster_id
      WHERE b.artist_id = ${artistId}`,
    );
    const row = rows[0];
    if (!row) return null;
    const artist = {
      cluster_id: clusterIdOf('artist', artistId),
      slug: row.slug ?? '',
      name: row.name,
      genre: row.main_genre,
      observations: sortedObservations(row.doc.observations),
    };
    return bandcampSignalsOf(artist, row.doc, row.as_of);
  }

  async manifest(query: BandcampManifestQuery, abort?: AbortProbe): Promise<BandcampManifest> {
    const { sql } = this;
    const tag = query.tag?.toLowerCase() ?? null;
    const [asOf, rows] = await Promise.all([
      this.asOf(abort),
      this.read(
        abort,
        () => sql<Array<{ cluster_id: number; slug: string | null; name: string; url: string; observations: BandcampObservation[] }>>`
        SELECT a.cluster_id, a.slug, a.name, b.url, b.doc->'observations' AS observations
        FROM bandcamp_artists b JOIN artists a ON a.discogs_id = b.artist_id
        WHERE jsonb_array_length(b.doc->'observations') > 0
          ${query.after === null ? sql`` : sql`AND a.cluster_id > ${query.after}`}
          ${tag === null ? sql`` : sql`AND EXISTS (SELECT 1 FROM bandcamp_releases r, unnest(r.tags) AS t WHERE r.artist_id = b.artist_id AND lower(t) = ${tag})`}
        ORDER BY a.cluster_id
        LIMIT ${query.limit}`,
      ),
    ]);
    const artists = rows.map((row) => {
      const latest = sortedObservations(row.observations).at(-1) as BandcampObservation;
      return { cluster_id: row.cluster_id, slug: row.slug ?? '', name: row.name, url: row.url, followers: latest.followers, supporters: latest.supporters };
    });
    return { as_of: asOf, artists };
  }

  async releases(query: BandcampReleaseQuery, abort?: AbortProbe): Promise<BandcampReleaseData | null> {
    const { sql } = this;
    let rows: Array<{ discogs_id: number; slug: string | null; name: string; releases: BandcampRow['releases'] }>;
    if (query.by === 'url') {
      rows = await this.read(
        abort,
        () => sql<typeof rows>`
        SELECT a.discogs_id, a.slug, a.name, jsonb_build_array(b.doc->'releases'->(r.position - 1)) AS releases
        FROM bandcamp_releases r JOIN bandcamp_artists b ON b.artist_id = r.artist_id JOIN artists a ON a.discogs_id = r.artist_id
        WHERE r.url = ${releaseUrlKey(query.url)}
        ORDER BY r.artist_id DESC, r.position DESC LIMIT 1`,
      );
    } else {
      if (kindOfClusterId(query.cluster_id) !== 'artist') return null;
      rows = await this.read(
        abort,
        () => sql<typeof rows>`
        SELECT a.discogs_id, a.slug, a.name, b.doc->'releases' AS releases
        FROM bandcamp_artists b JOIN artists a ON a.discogs_id = b.artist_id
        WHERE b.artist_id = ${sourceIdOfClusterId(query.cluster_id)}`,
      );
    }
    const row = rows[0];
    if (!row) return null;
    return {
      artist: { cluster_id: clusterIdOf('artist', row.discogs_id), slug: row.slug ?? '', name: row.name },
      releases: row.releases.map((release) => ({ title: release.title, url: release.url, released: release.released, tags: release.tags })),
    };
  }
}
