/**
 * The four Discogs tables as the bulk import loads them (issue 13): the columns a COPY line
 * carries, in the live table's own order, and the line of one row. The line is built where
 * the row is parsed (the importer's worker thread), so the main thread only streams text.
 * Derived columns (slug, master_count) are left to their defaults here and set by finish();
 * slug_base is core's slugBase so finish() can assign slugs in SQL (migration 0009).
 */
import type { ArtistRow, LabelRow, MasterRow, ReleaseRow } from '@catalogue/core';
import { slugBase } from '@catalogue/core/catalogue';
import { copyInt, copyJson, copyText, copyTextArray } from './copy-text.js';

export type BulkTable = 'artists' | 'labels' | 'masters' | 'releases';

export interface BulkRowOf {
  artists: ArtistRow;
  labels: LabelRow;
  masters: MasterRow;
  releases: ReleaseRow;
}

export const BULK_TABLES: readonly BulkTable[] = ['artists', 'labels', 'masters', 'releases'];

/** The id column of each table (its primary key). */
export const BULK_ID: Record<BulkTable, string> = { artists: 'discogs_id', labels: 'discogs_id', masters: 'master_id', releases: 'release_id' };

/**
 * Columns each COPY line carries, in order. An agent's `slug` is written as what a first import
 * keeps: its `slug_base`, or `${base}-${id}` when the reader saw the base earlier in the file
 * (SlugBasesSeen); bulk-load.ts's assignSlugs then rewrites only the rows guessed wrong. Left
 * NULL, every row was UPDATEd once (issue 29: at 4 M records 16.5 s for artists, and a heap of
 * 1,141 MB, half of it the dead first versions); loaded as the base, every row whose base a
 * lower id holds was (the bench dump's 1.2 M artists share 1,000 names: 15.6 s).
 * A re-import's upsert does not write it (upsertChanged): finish() recomputes live slugs.
 */
export const BULK_COLUMNS: Record<BulkTable, readonly string[]> = {
  artists: ['discogs_id', 'cluster_id', 'name', 'mbid', 'spotify_id', 'slug_base', 'slug', 'doc', 'content_hash'],
  labels: ['discogs_id', 'cluster_id', 'name', 'parent_id', 'slug_base', 'slug', 'doc', 'content_hash'],
  masters: ['master_id', 'title', 'year', 'main_release_id', 'genres', 'styles', 'doc', 'content_hash'],
  releases: ['release_id', 'master_id', 'is_main_release', 'released', 'doc', 'content_hash'],
};

/** The row's id (its primary key value). */
export function bulkIdOf<T extends BulkTable>(table: T, row: BulkRowOf[T]): number {
  switch (table) {
    case 'artists':
    case 'labels':
      return (row as ArtistRow | LabelRow).discogs_id;
    case 'masters':
      return (row as MasterRow).master_id;
    default:
      return (row as ReleaseRow).release_id;
  }
}

/**
 * The slug bases of one file's agents, told in the order of the file: true when the base was
 * (probably) seen before, i.e. a lower id holds it in a dump sorted by id, as Discogs' are.
 * The row is then loaded with `${base}-${id}` instead of its base; assignSlugs (bulk-load.ts)
 * corrects whatever this guessed wrong, so a wrong answer costs a rewritten row, never a wrong slug.
 */
export interface SlugBasesSeen {
  seen(base: string): boolean;
}

/** The slug base and the slug a first import loads (BULK_COLUMNS: slug_base, slug), COPY-escaped. */
function slugColumns(kind: 'artist' | 'label', id: number, name: string, bases: SlugBasesSeen | undefined): string {
  const base = slugBase(kind, id, name);
  const slug = bases?.seen(base) ? `${base}-${id}` : base;
  return `${copyText(base)}\t${copyText(slug)}`;
}

/**
 * One COPY line (with its newline) of `row`; `hash` is a uuid's text, or null when unknown. Cluster ids
 * are derived, never allocated: id × 4 + 1 for artists, + 2 for labels (docs/decisions.md §5).
 * `bases`: the slug bases seen before in the file (SlugBasesSeen); without it every agent is loaded with its base.
 */
export function bulkLine<T extends BulkTable>(table: T, row: BulkRowOf[T], contentHash: string | null, bases?: SlugBasesSeen): string {
  const hash = contentHash ?? '\\N';
  switch (table) {
    case 'artists': {
      const r = row as ArtistRow;
      const slugs = slugColumns('artist', r.discogs_id, r.name, bases);
      return `${r.discogs_id}\t${r.discogs_id * 4 + 1}\t${copyText(r.name)}\t${copyText(r.mbid)}\t${copyText(r.spotify_id)}\t${slugs}\t${copyJson(r)}\t${hash}\n`;
    }
    case 'labels': {
      const r = row as LabelRow;
      const slugs = slugColumns('label', r.discogs_id, r.name, bases);
      return `${r.discogs_id}\t${r.discogs_id * 4 + 2}\t${copyText(r.name)}\t${copyInt(r.parent?.discogs_id)}\t${slugs}\t${copyJson(r)}\t${hash}\n`;
    }
    case 'masters': {
      const r = row as MasterRow;
      return `${r.master_id}\t${copyText(r.title)}\t${copyInt(r.year)}\t${copyInt(r.main_release_id)}\t${copyTextArray(r.genres)}\t${copyTextArray(r.styles)}\t${copyJson(r)}\t${hash}\n`;
    }
    default: {
      const r = row as ReleaseRow;
      return `${r.release_id}\t${copyInt(r.master_id)}\t${r.is_main_release ? 't' : 'f'}\t${copyText(r.released)}\t${copyJson(r)}\t${hash}\n`;
    }
  }
}
