/**
 * createPostgresWriter: the CatalogueWriter importers and generators load through. Each batch
 * is one transaction (staging table, then pending_rows), so a failed batch leaves nothing
 * behind; finish() merges every batch (a re-written row replaces the stored one) and
 * recomputes what derives from them in one transaction, so readers switch to the import at
 * its commit, all routes at once (issue 29).
 */
import type { ArtistRow, BandcampRow, CatalogueWriter, FestivalRow, LabelRow, MasterRow, ReleaseRow } from '@catalogue/core';
import { bandcampHostOf, releaseUrlKey } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import { applyPendingBulk, dropPendingTables } from '../bulk/bulk-load.js';
import { refreshAgentStubs } from './agent-stubs.js';
import { buildDerivedByCopy, type DerivedBuild } from './derived-copy.js';
import { recomputeLinks } from './derived-links.js';
import { rebuildFacetTables } from './facet-tables.js';
import { advanceGeneration, announceGeneration, bumpGeneration } from './generation.js';
import { rebuildMasterRecords } from './master-records.js';
import { mergeArtists, mergeBandcamp, mergeFestivals, mergeLabels, mergeMasters, mergeReleases } from './merges.js';
import { rebuildSearchDocuments } from './search-documents.js';
import { rebuildSearchTerms } from './search-terms.js';
import { recomputeSignals } from './signals.js';
import { recomputeSlugs } from './slugs.js';
import { applyPendingRows, dropPendingRows, lastById, type PendingKind, type StagingMode, stagePending } from './staging.js';
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
  const write = <T>(kind: PendingKind, rows: readonly T[], idOf: (row: T) => number, docOf: (row: T) => unknown = (row) => row) =>
    stagePending(sql, mode, kind, lastById(rows, idOf).map(docOf));

  return {
    writeArtists: (rows: ArtistRow[]) => write('artists', rows, (row) => row.discogs_id),
    writeLabels: (rows: LabelRow[]) => write('labels', rows, (row) => row.discogs_id),
    writeMasters: (rows: MasterRow[]) => write('masters', rows, (row) => row.master_id),
    writeReleases: (rows: ReleaseRow[]) => write('releases', rows, (row) => row.release_id),
    writeFestivals: (rows: FestivalRow[]) => write('festivals', rows, (row) => row.festival_id),
    writeBandcamp: (rows: BandcampRow[]) =>
      write(
        'bandcamp',
        rows,
        (row) => row.artist_discogs_id,
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
      if (!finishOptions.force && !(await derivedDataStale(sql))) {
        await step('generation', async () => {
          await advanceGeneration(sql);
        });
        return;
      }
      await publish(step);
      await step('announce', async () => {
        await announceGeneration(sql);
      });
      // VACUUM cannot run in a transaction: after the commit, on the tables as served.
      await step('vacuum analyze', () => vacuumCatalogue(sql));
    },
  };

  /**
   * One transaction publishes the import (issue 29): the rows written since the last finish()
   * (row batches, a bulk load's changed records) merged, then everything derived from them
   * recomputed in it, the fresh derived tables swapped in and the generation advanced, last.
   * Until it commits every reader, on every table, sees the catalogue before the import; at
   * its commit every reader sees the whole import. (Before, the rows were merged as written and
   * each derived table swapped at its own step: a dossier served a new title 9.5 s before
   * finish() ended, search 0.9 s before, kept master records only after.)
   */
  async function publish(step: (name: string, run: () => Promise<void>) => Promise<void>): Promise<void> {
    // The one pass needs connections beside the transaction's (documents COPYed, indexes built
    // two at a time); a smaller pool recomputes in place, in the transaction, like PGlite.
    const onePass = mode === 'copy' && (sql.options.max ?? 10) >= 3;
    let built: DerivedBuild | undefined;
    let published = false;
    try {
      await sql.begin(async (tx) => {
        await tx.unsafe('SET LOCAL jit = off');
        await step('apply loaded rows', async () => {
          await applyPendingRows(tx, MERGES);
          await applyPendingBulk(tx);
        });
        // First: links, slugs and records below count the stubs as agents like any other.
        await step('agent stubs', () => refreshAgentStubs(tx));
        await step('links', () => recomputeLinks(tx));
        // The passes below join the freshly written tables; without statistics the planner took
        // labels (tens of thousands of rows) for empty and scanned them once per master.
        await step('analyze', () => analyzeCatalogue(tx));
        await step('slugs', async () => {
          for (const kind of ['artist', 'label', 'festival'] as const) await recomputeSlugs(tx, kind);
        });
        if (onePass) {
          // On PostgreSQL documents, records, one-word terms and the facet tables with the style
          // words (issue 14 item 3) come from one pass over masters (then artists and labels) whose
          // JavaScript runs in worker threads, swapped in together below (derived-copy.ts; issue 13).
          // After slugs: a record and a document carry the slugs of the artists and labels they credit.
          built = await buildDerivedByCopy(sql, tx, {
            pageSize: derivedPageSize,
            threads: derivedThreads,
            ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
            step,
          });
        } else {
          // PGlite serves one connection: each table in turn, in place, in the transaction.
          await step('search documents', () => rebuildSearchDocuments(tx, mode, pageSize));
          await step('search terms', () => rebuildSearchTerms(tx, mode));
          await step('facet tables', () => rebuildFacetTables(tx, mode));
          await step('master records', () => rebuildMasterRecords(tx, pageSize));
        }
        await step('signals', () => recomputeSignals(tx, pageSize));
        // Last: a swap holds its tables' exclusive locks until the commit, so it comes right
        // before it, and the generation with it.
        await step('swap', async () => {
          await built?.swap(tx);
          await bumpGeneration(tx);
        });
      });
      published = true;
    } finally {
      await built?.discard();
      // A failed publish fails the import whole (nothing of it was seen): what it loaded goes
      // too, as a failed bulk load's import tables do, or a bad row would refuse every later
      // finish(). derived_stale stays set: the next finish() recomputes.
      if (!published) {
        await dropPendingRows(sql).catch(() => undefined);
        await dropPendingTables(sql).catch(() => undefined);
      }
    }
  }
}

const MERGES = {
  artists: mergeArtists,
  labels: mergeLabels,
  masters: mergeMasters,
  releases: mergeReleases,
  festivals: mergeFestivals,
  bandcamp: mergeBandcamp,
} as const;

/**
 * True unless derived data is known complete: derived_stale is false and a finish() has
 * completed (generation > 0). A database whose rows were written some other way before its
 * first finish() is always recomputed.
 */
async function derivedDataStale(sql: Sql): Promise<boolean> {
  const [state] = await sql<Array<{ stale: boolean; generation: string }>>`SELECT derived_stale AS stale, generation::text FROM catalogue_state`;
  return !state || state.stale || state.generation === '0';
}
