/**
 * The AgentLookup record assembly needs (slug and canonical name of referenced agents), filled
 * with one query for exactly the ids the fetched rows reference.
 */
import type { AbortProbe, AgentKind, ArtistRow, FestivalRow, LabelRow, MasterRow, ReleaseRow } from '@catalogue/core';
import { type AgentLookup, mapLookup } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import type { Reader } from './reader.js';

export class ReferencedIds {
  readonly artist = new Set<number>();
  readonly label = new Set<number>();
  readonly festival = new Set<number>();

  masters(masters: readonly MasterRow[]): this {
    for (const master of masters) for (const credit of master.artists) this.artist.add(credit.discogs_id);
    return this;
  }

  releases(releases: readonly ReleaseRow[]): this {
    for (const release of releases) {
      for (const credit of release.artists) this.artist.add(credit.discogs_id);
      for (const credit of release.extra_artists) this.artist.add(credit.discogs_id);
      for (const label of release.labels) if (label.discogs_id !== null) this.label.add(label.discogs_id);
    }
    return this;
  }

  artistRefs(artist: ArtistRow): this {
    for (const ref of [...artist.aliases, ...artist.members, ...artist.groups]) if (ref.discogs_id !== null) this.artist.add(ref.discogs_id);
    return this;
  }

  labelRefs(label: LabelRow): this {
    for (const ref of [...(label.parent ? [label.parent] : []), ...label.sublabels]) if (ref.discogs_id !== null) this.label.add(ref.discogs_id);
    return this;
  }

  festivals(festivals: readonly FestivalRow[]): this {
    for (const festival of festivals) {
      this.festival.add(festival.festival_id);
      for (const edition of festival.editions) for (const slot of edition.lineup) this.artist.add(slot.artist_discogs_id);
    }
    return this;
  }
}

export async function lookupOf(sql: Sql, read: Reader, ids: ReferencedIds, abort?: AbortProbe): Promise<AgentLookup> {
  const rows = await read(
    abort,
    () => sql<Array<{ kind: AgentKind; id: number; slug: string | null; name: string }>>`
    SELECT 'artist' AS kind, discogs_id AS id, slug, name FROM artists WHERE discogs_id = ANY(${[...ids.artist]}::int[])
    UNION ALL
    SELECT 'label', discogs_id, slug, name FROM labels WHERE discogs_id = ANY(${[...ids.label]}::int[])
    UNION ALL
    SELECT 'festival', festival_id, slug, name FROM festivals WHERE festival_id = ANY(${[...ids.festival]}::int[])`,
  );
  const maps = { artist: new Map<number, { slug: string; name: string }>(), label: new Map(), festival: new Map() } as Record<
    AgentKind,
    Map<number, { slug: string; name: string }>
  >;
  for (const row of rows) maps[row.kind].set(row.id, { slug: row.slug ?? '', name: row.name });
  return mapLookup(maps);
}
