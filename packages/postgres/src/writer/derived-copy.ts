/**
 * search_documents, master_records, search_terms and the facet tables (facet_totals,
 * facet_codes, search_style_words) rebuilt whole on PostgreSQL in one pass (issue 13): pages of
 * masters, artists and labels are read several at a time (derived-queries.ts), turned into COPY
 * text by worker threads (derived-pages.ts) and COPYed into fresh tables. Then two sessions side
 * by side fill the terms (search-terms.ts) and the facet tables (facet-tables.ts) from the fresh
 * documents in SQL and build every key and index, and all the tables are swapped in together in
 * finish()'s one transaction with facet_state and the import's own rows (bulk/table-swap.ts,
 * writer/index.ts), so no read sees one generation's documents with another's terms, values,
 * records or source rows. Each master's data is
 * read once for its document and its record. Festivals are few: their documents are made on
 * this thread.
 *
 * Measured (100 k per kind): the terms made in the workers and COPYed beside the documents cost
 * more than this (+17 s of rows, +9 s of indexes against 17–21 s for the SQL step): COPY parses
 * each term row's two text[] columns, which INSERT … SELECT copies as they are.
 */
import type { FestivalRow } from '@catalogue/core';
import type { Sql, TransactionSql } from 'postgres';
import { buildKeysAndIndexesLike, indexStatementsLike, swapIn } from '../bulk/table-swap.js';
import { copyInto, DERIVED_TABLES } from './derived-page-task.js';
import type { PageKind } from './derived-pages.js';
import { type IdRange, pageRanges, readPage } from './derived-queries.js';
import { startDerivedThreads } from './derived-threads.js';
import { FACET_SCRATCH, FACET_TARGETS, facetTargetsRun, mastersIn, setFacetState } from './facet-tables.js';
import { documentLine, festivalDocument } from './search-document-rows.js';
import { forEachPage } from './search-documents.js';
import { TERM_TABLES } from './search-terms.js';

export interface DerivedCopyOptions {
  /** Masters (and artists, labels) per page. */
  pageSize: number;
  /** Worker threads computing and writing pages (0: all on this thread). */
  threads: number;
  /** Where the workers connect; without it, pages are done on this thread. */
  databaseUrl?: string;
  step: (name: string, run: () => Promise<void>) => Promise<void>;
}

/** The fresh tables, built: swapped in by finish()'s transaction, or dropped. */
export interface DerivedBuild {
  /** In finish()'s transaction, last: every fresh table under the live names, with facet_state. */
  swap(tx: TransactionSql): Promise<void>;
  /** Drops what was not swapped in (after a failure; nothing is left once swapped). */
  discard(): Promise<void>;
}

/** Up to this many pages (a test's or a demo's catalogue), no worker is started. */
const SMALL_PAGES = 4;

/**
 * Builds the fresh tables. The source rows are read in `tx`, finish()'s one transaction, the
 * only session that sees the import's rows before it commits (issue 29); the fresh tables are
 * created, filled and indexed on the pool's other connections and by the worker threads,
 * committed as they go but read by no one until `swap` renames them in `tx`.
 */
export async function buildDerivedByCopy(sql: Sql, tx: TransactionSql, options: DerivedCopyOptions): Promise<DerivedBuild> {
  const TABLES = DERIVED_TABLES;
  const [documents] = TABLES;
  const terms = TERM_TABLES.map((terms) => ({ ...terms, target: `import_${terms.table}` }));
  const all = [...TABLES, ...terms, ...FACET_TARGETS];
  const dropTargets = async () => {
    await sql.unsafe(`DROP TABLE IF EXISTS ${[...all.map((t) => t.target), FACET_SCRATCH].join(', ')}`);
  };
  await dropTargets();
  for (const { table, target } of all) await sql.unsafe(`CREATE TABLE ${target} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
  let masters = 0;
  try {
    await options.step('documents and records: rows', async () => {
      const pages: Array<{ kind: PageKind; range: IdRange }> = [];
      for (const kind of ['masters', 'artists', 'labels'] as const) {
        for (const range of await pageRanges(tx, kind, options.pageSize)) pages.push({ kind, range });
      }
      const threads = startDerivedThreads(sql, pages.length > SMALL_PAGES ? options.threads : 0, options.databaseUrl);
      let failed: PromiseSettledResult<void> | undefined;
      try {
        // Four pages per worker (read ahead in the transaction, computed, COPYed), or two on this thread.
        const runner = async () => {
          for (let page = pages.shift(); page !== undefined; page = pages.shift()) {
            try {
              await threads.run(page.kind, { json: await readPage(tx, page.kind, page.range) });
            } catch (error) {
              pages.length = 0;
              throw error;
            }
          }
        };
        // Every runner settles before an error is raised, so none is left writing.
        failed = (await Promise.allSettled(Array.from({ length: Math.max(2, 4 * threads.size) }, runner))).find((result) => result.status === 'rejected');
      } finally {
        await threads.close(failed !== undefined);
      }
      if (failed?.status === 'rejected') throw failed.reason;
      await forEachPage(
        (after) => tx<Array<{ page_id: number; slug: string | null; doc: FestivalRow }>>`
          SELECT festival_id AS page_id, slug, doc FROM festivals WHERE festival_id > ${after} ORDER BY festival_id LIMIT ${options.pageSize}`,
        (rows) =>
          copyInto(sql, documents.target, documents.columns, rows.map((row) => documentLine(festivalDocument(row.page_id, row.slug, row.doc))).join('')),
      );
    });
    await options.step('terms and indexes', async () => {
      // The terms filled, then indexed, by one session, and the facet tables by another: the
      // longest runs, taken first. They read only the fresh documents.
      const fills = await Promise.all(
        terms.map(async ({ table, target, fill }) => [fill(target, documents.target), ...(await indexStatementsLike(sql, table, target))]),
      );
      await buildKeysAndIndexesLike(sql, TABLES, 2, [await facetTargetsRun(sql, documents.target), ...fills]);
      masters = await mastersIn(sql, documents.target);
    });
  } catch (error) {
    await dropTargets();
    throw error;
  }
  return {
    async swap(publish) {
      for (const { table, target } of all) await swapIn(publish, table, target);
      await setFacetState(publish, masters);
    },
    discard: dropTargets,
  };
}
