/**
 * createPostgresWriter: the CatalogueWriter importers and generators load through. Each batch
 * is one transaction (staging table + merge), so a failed batch leaves nothing behind and a
 * re-written row replaces the stored one.
 */
import type { ArtistRow, BandcampRow, CatalogueWriter, FestivalRow, LabelRow, MasterRow, ReleaseRow } from '@catalogue/core';
import { bandcampHostOf, releaseUrlKey } from '@catalogue/core/catalogue';
import type { Sql, TransactionSql } from 'postgres';
import { refreshAgentStubs } from './agent-stubs.js';
import { rebuildDerivedByCopy } from './derived-copy.js';
import { recomputeLinks } from './derived-links.js';
import { rebuildFacetTables } from './facet-tables.js';
import { advanceGeneration } from './generation.js';
import { rebuildMasterRecords } from './master-records.js';
import { mergeArtists, mergeBandcamp, mergeFestivals, mergeLabels, mergeMasters, mergeReleases } from './merges.js';
import { rebuildSearchDocuments } from './search-documents.js';
import { rebuildSearchTerms } from './search-terms.js';
import { rebuildSearchVocabulary } from './search-vocabulary.js';
import { recomputeSignals } from './signals.js';
import { recomputeSlugs } from './slugs.js';
import { lastById, type StagingMode, stageAndMerge } from './staging.js';
import { analyzeCatalogue, vacuumCatalogue } from './vacuum.js';

export interface WriterOptions {
  /** 'copy' (PostgreSQL, default) or 'parameter' (PGlite, whose socket server has no COPY). */
  staging?: StagingMode;
  /**
   * Rows per page when finish() rebuilds derived tables (default 5,000; 1,000 on PostgreSQL,
   * where worker threads compute the pages of search documents and master records, each
   * holding a few: the loader's memory stays within its 300 MB goal, issue 13).
   */
  pageSize?: number;
  /**
   * Worker threads computing search documents and master records on PostgreSQL (default 2: the
   * main thread only moves text, PostgreSQL reads and writes beside them; issue 13).
   */
  derivedThreads?: number;
  /** Where those worker threads connect (each its own connection); without it they are not used. */
  databaseUrl?: string;
  /** Told how long each step of finish() took (the bench reports where a load's time goes). */
  onFinishStep?: (step: string, seconds: number) => void;
}

export function createPostgresWriter(sql: Sql, options: WriterOptions = {}): CatalogueWriter {
  const mode = options.staging ?? 'copy';
  const pageSize = options.pageSize ?? (mode === 'copy' ? 1_000 : 5_000);
  // A page of the one pass is read as one JSON text and computed off this thread.
  const derivedPageSize = options.pageSize ?? 1_000;
  const derivedThreads = options.derivedThreads ?? 2;
  const write = <T>(rows: readonly T[], idOf: (row: T) => number, merge: (tx: TransactionSql) => Promise<void>, docOf: (row: T) => unknown = (row) => row) =>
    stageAndMerge(sql, mode, lastById(rows, idOf).map(docOf), merge);

  return {
    writeArtists: (rows: ArtistRow[]) => write(rows, (row) => row.discogs_id, mergeArtists),
    writeLabels: (rows: LabelRow[]) => write(rows, (row) => row.discogs_id, mergeLabels),
    writeMasters: (rows: MasterRow[]) => write(rows, (row) => row.master_id, mergeMasters),
    writeReleases: (rows: ReleaseRow[]) => write(rows, (row) => row.release_id, mergeReleases),
    writeFestivals: (rows: FestivalRow[]) => write(rows, (row) => row.festival_id, mergeFestivals),
    writeBandcamp: (rows: BandcampRow[]) =>
      write(
        rows,
        (row) => row.artist_discogs_id,
        mergeBandcamp,
        (row) => ({
          ...row,
          _host: bandcampHostOf(row.url),
          _release_keys: row.releases.map((release) => releaseUrlKey(release.url)),
        }),
      ),
    async finish(finishOptions = {}) {
      const step = async (name: string, run: () => Promise<void>) => {
        const startedAt = performance.now();
        await run();
        options.onFinishStep?.(name, (performance.now() - startedAt) / 1000);
      };
      // Nothing changed since derived data was last completed (an unchanged re-import): only the
      // generation advances (docs/decisions.md §5).
      if (finishOptions.force || (await derivedDataStale(sql))) await recomputeDerived(step);
      // Last: the new generation is announced only once everything above is committed.
      await step('generation', async () => {
        await advanceGeneration(sql);
      });
    },
  };

  async function recomputeDerived(step: (name: string, run: () => Promise<void>) => Promise<void>): Promise<void> {
    // First: links, slugs and records below count the stubs as agents like any other.
    await step('agent stubs', () => refreshAgentStubs(sql));
    await step('links', () => recomputeLinks(sql));
    // The passes below join the freshly written tables; without statistics the planner took
    // labels (tens of thousands of rows) for empty and scanned them once per master.
    await step('analyze', () => analyzeCatalogue(sql));
    await step('slugs', async () => {
      for (const kind of ['artist', 'label', 'festival'] as const) await recomputeSlugs(sql, kind);
    });
    if (mode === 'copy') {
      // On PostgreSQL documents, records, one-word terms and the facet tables with the style
      // words (issue 14 item 3) come from one pass over masters (then artists and labels) whose
      // JavaScript runs in worker threads, swapped in together (derived-copy.ts; issue 13).
      // After slugs: a record and a document carry the slugs of the artists and labels they credit.
      await rebuildDerivedByCopy(sql, {
        pageSize: derivedPageSize,
        threads: derivedThreads,
        ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
        step,
      });
    } else {
      // PGlite serves one connection: each table in turn, on this thread.
      await step('search documents', () => rebuildSearchDocuments(sql, mode, pageSize));
      await step('search terms', () => rebuildSearchTerms(sql, mode));
      await step('facet tables', () => rebuildFacetTables(sql, mode));
      await step('master records', () => rebuildMasterRecords(sql, pageSize));
    }
    // From the documents just swapped in: a word this import brought is a correction from now on.
    await step('search vocabulary', () => rebuildSearchVocabulary(sql, mode));
    await step('signals', () => recomputeSignals(sql, pageSize));
    await step('vacuum analyze', () => vacuumCatalogue(sql));
  }
}

/**
 * True unless derived data is known complete: derived_stale is false and a finish() has
 * completed (generation > 0). A database whose rows were written some other way before its
 * first finish() is always recomputed.
 */
async function derivedDataStale(sql: Sql): Promise<boolean> {
  const [state] = await sql<Array<{ stale: boolean; generation: string }>>`SELECT derived_stale AS stale, generation::text FROM catalogue_state`;
  return !state || state.stale || state.generation === '0';
}
