/**
 * search_documents and master_records rebuilt whole on PostgreSQL in one pass (issue 13):
 * pages of masters, artists and labels are read several at a time (derived-queries.ts), turned
 * into COPY text by worker threads (derived-pages.ts) and COPYed into fresh tables; their keys
 * and indexes are then built two sessions at a time and both tables swapped in together
 * (bulk/table-swap.ts). Each master's data is read once for its document and its record.
 * Festivals are few: their documents are made on this thread.
 */
import type { FestivalRow } from '@catalogue/core';
import type { Sql } from 'postgres';
import { buildKeysAndIndexesLike, swapIn } from '../bulk/table-swap.js';
import type { PageKind } from './derived-pages.js';
import { type IdRange, pageRanges, readPage } from './derived-queries.js';
import { startDerivedThreads } from './derived-threads.js';
import { DOCUMENT_COLUMNS, documentLine, festivalDocument } from './search-document-rows.js';
import { forEachPage } from './search-documents.js';

export interface DerivedCopyOptions {
  /** Masters (and artists, labels) per page. */
  pageSize: number;
  /** Worker threads computing pages (0: on this thread). */
  threads: number;
  /** Pages in flight at once (read, computed or written). */
  inFlight: number;
  step: (name: string, run: () => Promise<void>) => Promise<void>;
}

const SMALL_PAGES = 4;

const TABLES = [
  { table: 'search_documents', target: 'import_search_documents', columns: DOCUMENT_COLUMNS },
  { table: 'master_records', target: 'import_master_records', columns: ['master_id', 'record'] },
] as const;

/**
 * One COPY on a connection reserved for it: postgres.js pipelines queued queries onto a busy
 * connection, and a query queued behind a COPY on a small pool failed (COPY_IN_PROGRESS) or hung.
 */
async function copyInto(sql: Sql, target: string, columns: readonly string[], text: string): Promise<void> {
  if (text.length === 0) return;
  const reserved = await sql.reserve();
  try {
    const stream = await reserved.unsafe(`COPY ${target} (${columns.join(', ')}) FROM STDIN`).writable();
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.once('finish', resolve);
      stream.end(text);
    });
  } finally {
    reserved.release();
  }
}

export async function rebuildDocumentsAndRecordsByCopy(sql: Sql, options: DerivedCopyOptions): Promise<void> {
  const [documents, records] = TABLES;
  const dropTargets = () => sql.unsafe(`DROP TABLE IF EXISTS ${TABLES.map((t) => t.target).join(', ')}`);
  await dropTargets();
  for (const { table, target } of TABLES) await sql.unsafe(`CREATE TABLE ${target} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
  try {
    await options.step('documents and records: rows', async () => {
      const pages: Array<{ kind: PageKind; range: IdRange }> = [];
      for (const kind of ['masters', 'artists', 'labels'] as const) {
        for (const range of await pageRanges(sql, kind, options.pageSize)) pages.push({ kind, range });
      }
      // A small catalogue (a test's, a demo's) is computed on this thread: no worker to start.
      const threads = startDerivedThreads(pages.length > SMALL_PAGES ? options.threads : 0);
      try {
        const runner = async () => {
          for (let page = pages.shift(); page !== undefined; page = pages.shift()) {
            try {
              const output = await threads.run(page.kind, await readPage(sql, page.kind, page.range));
              await copyInto(sql, documents.target, documents.columns, output.documents);
              await copyInto(sql, records.target, records.columns, output.records);
            } catch (error) {
              pages.length = 0;
              throw error;
            }
          }
        };
        // Every runner settles before an error is raised, so none is left writing.
        const failed = (await Promise.allSettled(Array.from({ length: Math.max(1, options.inFlight) }, runner))).find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
      } finally {
        await threads.close();
      }
      await forEachPage(
        (after) => sql<Array<{ page_id: number; slug: string | null; doc: FestivalRow }>>`
          SELECT festival_id AS page_id, slug, doc FROM festivals WHERE festival_id > ${after} ORDER BY festival_id LIMIT ${options.pageSize}`,
        (rows) =>
          copyInto(sql, documents.target, documents.columns, rows.map((row) => documentLine(festivalDocument(row.page_id, row.slug, row.doc))).join('')),
      );
    });
    await options.step('documents and records: indexes', () => buildKeysAndIndexesLike(sql, TABLES, 2));
    await options.step('documents and records: swap', () =>
      sql.begin(async (tx) => {
        for (const { table, target } of TABLES) await swapIn(tx, table, target);
      }),
    );
  } finally {
    await dropTargets();
  }
}
