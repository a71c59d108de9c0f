/** findAgent and resolve: which agent a key or a question names. */
import type { AbortProbe } from '@catalogue/core';
import {
  type AgentIdentity,
  type AgentKey,
  type AgentKind,
  type ArtistRow,
  type ClusterData,
  clusterIdOf,
  type FestivalRow,
  kindOfClusterId,
  type LabelRow,
  type ResolveInput,
  sourceIdOfClusterId,
} from '@catalogue/core';
import { locatorsOf, nameKey } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import type { Reader } from './reader.js';
import { queryTextOf, scoreExpression } from './search-filter.js';

const AGENT_KINDS: AgentKind[] = ['artist', 'label', 'festival'];

export class Agents {
  constructor(
    private readonly sql: Sql,
    private readonly read: Reader,
  ) {}

  async identity(kind: AgentKind, sourceId: number, abort?: AbortProbe): Promise<AgentIdentity | null> {
    const { sql } = this;
    const rows = await this.read(abort, () =>
      kind === 'artist'
        ? sql<Array<{ slug: string | null; name: string }>>`SELECT slug, name FROM artists WHERE discogs_id = ${sourceId}`
        : kind === 'label'
          ? sql<Array<{ slug: string | null; name: string }>>`SELECT slug, name FROM labels WHERE discogs_id = ${sourceId}`
          : sql<Array<{ slug: string | null; name: string }>>`SELECT slug, name FROM festivals WHERE festival_id = ${sourceId}`,
    );
    const row = rows[0];
    return row ? { kind, cluster_id: clusterIdOf(kind, sourceId), slug: row.slug ?? '', name: row.name } : null;
  }

  /** The lowest source id holding the slug (a derived slug may equal another row's base). */
  async bySlug(kind: AgentKind, slug: string, abort?: AbortProbe): Promise<number | null> {
    const { sql } = this;
    const rows = await this.read(abort, () =>
      kind === 'artist'
        ? sql<Array<{ id: number }>>`SELECT discogs_id AS id FROM artists WHERE slug = ${slug} ORDER BY discogs_id LIMIT 1`
        : kind === 'label'
          ? sql<Array<{ id: number }>>`SELECT discogs_id AS id FROM labels WHERE slug = ${slug} ORDER BY discogs_id LIMIT 1`
          : sql<Array<{ id: number }>>`SELECT festival_id AS id FROM festivals WHERE slug = ${slug} ORDER BY festival_id LIMIT 1`,
    );
    return rows[0]?.id ?? null;
  }

  async byMbid(mbid: string, abort?: AbortProbe): Promise<number | null> {
    const rows = await this.read(
      abort,
      () => this.sql<Array<{ id: number }>>`
      SELECT discogs_id AS id FROM artists WHERE lower(mbid) = ${mbid.toLowerCase()} ORDER BY discogs_id LIMIT 1`,
    );
    return rows[0]?.id ?? null;
  }

  async find(key: AgentKey, kind: AgentKind | null, abort?: AbortProbe): Promise<AgentIdentity | null> {
    switch (key.by) {
      case 'cluster_id': {
        const found = kindOfClusterId(key.cluster_id);
        if (found === null || (kind !== null && found !== kind)) return null;
        return this.identity(found, sourceIdOfClusterId(key.cluster_id), abort);
      }
      case 'slug': {
        for (const candidate of kind ? [kind] : AGENT_KINDS) {
          const id = await this.bySlug(candidate, key.slug, abort);
          if (id !== null) return this.identity(candidate, id, abort);
        }
        return null;
      }
      case 'discogs':
        return kind === 'festival' ? null : this.identity(kind ?? 'artist', key.id, abort);
      case 'mbid': {
        if (kind !== null && kind !== 'artist') return null;
        const id = await this.byMbid(key.mbid, abort);
        return id === null ? null : this.identity('artist', id, abort);
      }
    }
  }

  /** The cluster answer of resolve: identity plus locators. */
  async cluster(kind: AgentKind, sourceId: number, abort?: AbortProbe): Promise<ClusterData | null> {
    const { sql } = this;
    if (kind === 'artist') {
      const rows = await this.read(
        abort,
        () => sql<Array<{ slug: string | null; doc: ArtistRow; bandcamp_url: string | null }>>`
        SELECT a.slug, a.doc, b.url AS bandcamp_url FROM artists a LEFT JOIN bandcamp_artists b ON b.artist_id = a.discogs_id
        WHERE a.discogs_id = ${sourceId}`,
      );
      const row = rows[0];
      if (!row) return null;
      const locators = locatorsOf({
        kind,
        discogsId: sourceId,
        mbid: row.doc.mbid,
        spotifyId: row.doc.spotify_id,
        urls: row.doc.urls,
        bandcampUrl: row.bandcamp_url,
      });
      return { cluster_id: clusterIdOf(kind, sourceId), kind, slug: row.slug ?? '', name: row.doc.name, locators };
    }
    if (kind === 'label') {
      const rows = await this.read(
        abort,
        () => sql<Array<{ slug: string | null; doc: LabelRow }>>`SELECT slug, doc FROM labels WHERE discogs_id = ${sourceId}`,
      );
      const row = rows[0];
      if (!row) return null;
      return {
        cluster_id: clusterIdOf(kind, sourceId),
        kind,
        slug: row.slug ?? '',
        name: row.doc.name,
        locators: locatorsOf({ kind, discogsId: sourceId, urls: row.doc.urls }),
      };
    }
    const rows = await this.read(
      abort,
      () => sql<Array<{ slug: string | null; doc: FestivalRow }>>`SELECT slug, doc FROM festivals WHERE festival_id = ${sourceId}`,
    );
    const row = rows[0];
    if (!row) return null;
    const locators = locatorsOf({ kind, discogsId: null, urls: row.doc.url ? [row.doc.url] : [] });
    return { cluster_id: clusterIdOf(kind, sourceId), kind, slug: row.slug ?? '', name: row.doc.name, locators };
  }

  async resolve(input: ResolveInput, abort?: AbortProbe): Promise<ClusterData | null> {
    const { sql } = this;
    switch (input.by) {
      case 'q':
        return this.resolveByName(input.q, abort);
      case 'discogs': {
        if (input.kind !== 'master') return this.cluster(input.kind, input.id, abort);
        const rows = await this.read(
          abort,
          () => sql<Array<{ id: number | null }>>`
          SELECT (doc->'artists'->0->>'discogs_id')::int AS id FROM masters WHERE master_id = ${input.id}`,
        );
        const id = rows[0]?.id;
        return id === undefined || id === null ? null : this.cluster('artist', id, abort);
      }
      case 'mbid': {
        const id = await this.byMbid(input.mbid, abort);
        return id === null ? null : this.cluster('artist', id, abort);
      }
      case 'bandcamp': {
        const rows = await this.read(
          abort,
          () => sql<Array<{ id: number }>>`
          SELECT b.artist_id AS id FROM bandcamp_artists b JOIN artists a ON a.discogs_id = b.artist_id
          WHERE b.host = ${input.host.toLowerCase()} ORDER BY b.artist_id LIMIT 1`,
        );
        return rows[0] ? this.cluster('artist', rows[0].id, abort) : null;
      }
      case 'spotify': {
        const rows = await this.read(
          abort,
          () => sql<Array<{ id: number }>>`
          SELECT discogs_id AS id FROM artists WHERE spotify_id = ${input.id} ORDER BY discogs_id LIMIT 1`,
        );
        return rows[0] ? this.cluster('artist', rows[0].id, abort) : null;
      }
    }
  }

  /**
   * Exact folded name first (artist, then label, then festival; then more masters; then lower
   * cluster_id), else the best-scoring agent whose name the query prefixes.
   */
  private async resolveByName(q: string, abort?: AbortProbe): Promise<ClusterData | null> {
    const { sql } = this;
    const key = nameKey(q);
    if (key === '') return null;
    const exact = await this.read(
      abort,
      () => sql<Array<{ kind: number; id: number; size: number }>>`
      SELECT d.kind, d.id, coalesce(a.master_count, l.master_count, 0) AS size
      FROM search_documents d
      LEFT JOIN artists a ON d.kind = 1 AND a.cluster_id = d.id
      LEFT JOIN labels l ON d.kind = 2 AND l.cluster_id = d.id
      WHERE d.kind > 0 AND d.name_key = ${key}
      ORDER BY d.kind, size DESC, d.id
      LIMIT 1`,
    );
    let clusterId = exact[0]?.id ?? null;
    if (clusterId === null) {
      const text = queryTextOf(q);
      const best = await this.read(
        abort,
        () => sql<Array<{ id: number }>>`
        SELECT id FROM (
          SELECT kind, id, ${scoreExpression(sql, text)} AS score FROM search_documents
          WHERE kind > 0 AND tsv @@ ${text.tsquery}::tsquery
        ) AS hits ORDER BY score DESC, kind, id LIMIT 1`,
      );
      clusterId = best[0]?.id ?? null;
    }
    if (clusterId === null) return null;
    const kind = kindOfClusterId(clusterId);
    return kind ? this.cluster(kind, sourceIdOfClusterId(clusterId), abort) : null;
  }
}
