/**
 * The JavaScript half of finish()'s derived tables on PostgreSQL (issue 13): a page of rows,
 * read by one query as JSON text (derived-queries.ts), turned into COPY text for
 * search_documents and master_records. Pure, so it runs in the derived-data worker threads
 * (derived-worker.ts) while the main thread only moves text between PostgreSQL and them.
 *
 * A master page yields both the master's search document and its stored record from one read
 * of its data: the record is core's masterRecordOf with the lookup assembleMasters builds
 * (catalogue/masters.ts), serialized the same way, so a stored record is the text the master
 * route would assemble live.
 */
import type { MasterRow, ReleaseRow } from '@catalogue/core';
import { mapLookup, masterRecordOf } from '@catalogue/core/catalogue';
import { copyText } from '../bulk/copy-text.js';
import { artistDocument, documentLine, labelDocument, masterDocumentOf } from './search-document-rows.js';

/** An agent as a page references it: [discogs id, slug, name]. */
export type AgentRef = [id: number, slug: string | null, name: string];

/**
 * A master with what its record and document need of its main release (labels, formats,
 * country, released: the rest of the release is never read) and its number of releases.
 */
export type MasterPageRow = [master: MasterRow, main: Pick<ReleaseRow, 'labels' | 'formats' | 'country' | 'released'> | null, releaseCount: number];

export interface MasterPage {
  masters: MasterPageRow[] | null;
  /** Every artist the page's masters credit (their `artists`), as found in the artists table. */
  artists: AgentRef[] | null;
  /** Every label the page's main releases credit, as found in the labels table. */
  labels: AgentRef[] | null;
}

/** [discogs id, name, slug, master count, [genre, masters of the artist having it]…]. */
export type ArtistPageRow = [id: number, name: string, slug: string | null, masterCount: number, genres: Array<[genre: string, masters: number]> | null];

/**
 * core's mainGenreOf from counts per genre (each master counted once per genre, as there): the
 * genre most masters have, a tie to the smaller name. Counted in SQL, an artist with 100,000
 * masters is a few pairs, not 100,000 genre lists, in a worker's page.
 */
export function mainGenreOfCounts(counts: ReadonlyArray<[genre: string, masters: number]> | null): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [genre, count] of counts ?? []) {
    if (count > bestCount || (count === bestCount && best !== null && genre < best)) {
      best = genre;
      bestCount = count;
    }
  }
  return best;
}
/** [discogs id, name, slug, master count]. */
export type LabelPageRow = [id: number, name: string, slug: string | null, masterCount: number];

export type PageKind = 'masters' | 'artists' | 'labels';

export interface PageOutput {
  /** COPY lines of search_documents (DOCUMENT_COLUMNS). */
  documents: string;
  /** COPY lines of master_records (master_id, record); empty but for master pages. */
  records: string;
}

export function masterPageOutput(page: MasterPage): PageOutput {
  // assembleMasters' lookup: an agent found with no slug yet has '' in a record (mapLookup's
  // maps hold strings), while the search document keeps null, as rebuildSearchDocuments did.
  const recordRefs = (list: AgentRef[] | null) => new Map((list ?? []).map(([id, slug, name]) => [id, { slug: slug ?? '', name }]));
  const lookup = mapLookup({ artist: recordRefs(page.artists), label: recordRefs(page.labels) });
  const labelRefs = new Map((page.labels ?? []).map(([id, slug, name]) => [id, { slug, name }]));
  const artistSlugs = new Map((page.artists ?? []).map(([id, slug]) => [id, slug]));
  const labelRef = (id: number) => labelRefs.get(id);
  const artistSlug = (id: number) => artistSlugs.get(id) ?? null;
  let records = '';
  let documents = '';
  for (const [master, main, releaseCount] of page.masters ?? []) {
    const mainRelease = main as ReleaseRow | null;
    records += `${master.master_id}\t${copyText(JSON.stringify(masterRecordOf(master, mainRelease, lookup)))}\n`;
    documents += documentLine(masterDocumentOf(master, mainRelease, releaseCount, labelRef, artistSlug));
  }
  return { documents, records };
}

export function artistPageOutput(rows: ArtistPageRow[]): PageOutput {
  let documents = '';
  for (const [id, name, slug, masterCount, genres] of rows) documents += documentLine(artistDocument(id, name, slug, masterCount, mainGenreOfCounts(genres)));
  return { documents, records: '' };
}

export function labelPageOutput(rows: LabelPageRow[]): PageOutput {
  let documents = '';
  for (const [id, name, slug, masterCount] of rows) documents += documentLine(labelDocument(id, name, slug, masterCount));
  return { documents, records: '' };
}

/** A page's JSON text (as derived-queries.ts reads it) to its COPY text. */
export function pageOutput(kind: PageKind, json: string): PageOutput {
  if (kind === 'masters') return masterPageOutput(JSON.parse(json) as MasterPage);
  if (kind === 'artists') return artistPageOutput((JSON.parse(json) as ArtistPageRow[] | null) ?? []);
  return labelPageOutput((JSON.parse(json) as LabelPageRow[] | null) ?? []);
}
