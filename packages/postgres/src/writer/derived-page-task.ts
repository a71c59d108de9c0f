/**
 * One page of finish()'s one pass on PostgreSQL (issue 13): read as JSON text
 * (derived-queries.ts), turned into COPY text (derived-pages.ts) and COPYed into the fresh
 * search_documents and master_records tables. Run in a worker thread on the worker's own
 * connection (derived-worker.ts), so neither the page nor its output passes through the main
 * thread, whose heap held ~100 MB of such strings between collections; or on the main thread.
 */
import type { Sql } from 'postgres';
import { type PageKind, type PageOutput, pageOutput } from './derived-pages.js';
import { type IdRange, readPage } from './derived-queries.js';
import { DOCUMENT_COLUMNS } from './search-document-rows.js';

export const DERIVED_TABLES = [
  { table: 'search_documents', target: 'import_search_documents', columns: DOCUMENT_COLUMNS },
  { table: 'master_records', target: 'import_master_records', columns: ['master_id', 'record'] },
] as const;

/**
 * One COPY on a connection reserved for it: postgres.js pipelines queued queries onto a busy
 * connection, and a query queued behind a COPY on a small pool failed (COPY_IN_PROGRESS) or hung.
 */
export async function copyInto(sql: Sql, target: string, columns: readonly string[], text: string): Promise<void> {
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

/** Writes a page's COPY text into both tables. */
export async function writeOutput(sql: Sql, output: PageOutput): Promise<void> {
  const [documents, records] = DERIVED_TABLES;
  await copyInto(sql, documents.target, documents.columns, output.documents);
  await copyInto(sql, records.target, records.columns, output.records);
}

/** Computes and writes a page already read. */
export async function writePage(sql: Sql, kind: PageKind, json: string): Promise<void> {
  await writeOutput(sql, pageOutput(kind, json));
}

export async function processPage(sql: Sql, kind: PageKind, range: IdRange): Promise<void> {
  await writePage(sql, kind, await readPage(sql, kind, range));
}
