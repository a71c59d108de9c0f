/**
 * search_documents, master_records, search_terms and the facet tables (facet_totals,
 * facet_codes, search_style_words) rebuilt whole on PostgreSQL in one pass (issue 13): pages of
 * masters, artists and labels are read several at a time (derived-queries.ts), turned into COPY
 * text by worker threads (derived-pages.ts) and COPYed into fresh tables. Then two sessions side
 * by side fill the terms (search-terms.ts) and the facet tables (facet-tables.ts) from the fresh
 * documents in SQL and build every key and index, and all the tables are swapped in together in
 * one transaction with facet_state (bulk/table-swap.ts), so neither a search nor a facet count
 * ever reads one generation's documents with another's terms or values. Each master's data is
 * read once for its document and its record. Festivals are few: their documents are made on
 * this thread.
 *
 * Measured (100 k per kind): the terms made in the workers and COPYed beside the documents cost
 * more than this (+17 s of rows, +9 s of indexes against 17–21 s for the SQL step): COPY parses
 * each term row's two text[] columns, which INSERT … SELECT copies as they are.
 */
import type { FestivalRow } from '@catalogue/core';
import type { Sql } from 'postgres';
import { buildKeysAndIndexesLike, indexStatementsLike, swapIn } from '../bulk/table-swap.js';
import { copyInto, DERIVED_TABLES } from './derived-page-task.js';
import type { PageKind } from './derived-pages.js';
import { type IdRange, pageRanges } from './derived-queries.js';
import { startDerivedThreads } from './derived-threads.js';
import { FACET_SCRATCH, FACET_TARGETS, facetTargetsRun, mastersIn, setFacetState } from './facet-tables.js';
import { documentLine, festivalDocument } from './search-document-rows.js';
import { forEachPage } from './search-documents.js';
import { TERM_TABLES } from './search-terms.js';

export interface DerivedCopyOptions {
  /** Masters (and artists, labels) per page. */
  pageSize: number;
  /** Worker threads reading, computing and writing pages (0: all on this thread). */
  threads: number;
  /** Where the workers connect; without it, pages are done on this thread. */
  databaseUrl?: string;
  step: (name: string, run: () => Promise<void>) => Promise<void>;
}

/** Up to this many pages (a test's or a demo's catalogue), no worker is started. */
const SMALL_PAGES = 4;

export async function rebuildDerivedByCopy(sql: Sql, options: DerivedCopyOptions): Promise<void> {
  const TABLES = DERIVED_TABLES;
  const [documents] = TABLES;
  const terms = TERM_TABLES.map((terms) => ({ ...terms, target: `import_${terms.table}` }));
  const all = [...TABLES, ...terms, ...FACET_TARGETS];
  const dropTargets = () => sql.unsafe(`DROP TABLE IF EXISTS ${[...all.map((t) => t.target), FACET_SCRATCH].join(', ')}`);
  await dropTargets();
  for (const { table, target } of all) await sql.unsafe(`CREATE TABLE ${target} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
  try {
    await options.step('documents and records: rows', async () => {
      const pages: Array<{ kind: PageKind; range: IdRange }> = [];
      for (const kind of ['masters', 'artists', 'labels'] as const) {
        for (const range of await pageRanges(sql, kind, options.pageSize)) pages.push({ kind, range });
      }
      const threads = startDerivedThreads(sql, pages.length > SMALL_PAGES ? options.threads : 0, options.databaseUrl);
      let failed: PromiseSettledResult<void> | undefined;
      try {
        // Four pages per worker (read ahead, computed, COPYed), or two on this thread.
        const runner = async () => {
          for (let page = pages.shift(); page !== undefined; page = pages.shift()) {
            try {
              await threads.run(page.kind, page.range);
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
        (after) => sql<Array<{ page_id: number; slug: string | null; doc: FestivalRow }>>`
          SELECT festival_id AS page_id, slug, doc FROM festivals WHERE festival_id > ${after} ORDER BY festival_id LIMIT ${options.pageSize}`,
        (rows) =>
          copyInto(sql, documents.target, documents.columns, rows.map((row) => documentLine(festivalDocument(row.page_id, row.slug, row.doc))).join('')),
      );
    });
    let masters = 0;
    await options.step('terms and indexes', async () => {
      // The terms filled, then indexed, by one session, and the facet tables by another: the
      // longest runs, taken first.
      const fills = await Promise.all(
        terms.map(async ({ table, target, fill }) => [fill(target, documents.target), ...(await indexStatementsLike(sql, table, target))]),
      );
      await buildKeysAndIndexesLike(sql, TABLES, 2, [await facetTargetsRun(sql, documents.target), ...fills]);
      masters = await mastersIn(sql, documents.target);
    });
    await options.step('swap', () =>
      sql.begin(async (tx) => {
        for (const { table, target } of all) await swapIn(tx, table, target);
        await setFacetState(tx, masters);
      }),
    );
  } finally {
    await dropTargets();
  }
}
