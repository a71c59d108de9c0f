/**
 * Rebuilds master_records: each master's record assembled by the same code the master route
 * falls back to (core's masterRecordOf via assembleMasters), so a stored and a live record
 * are the same JSON. Pages by master id; a page whose records did not change rewrites nothing,
 * so a re-import leaves the table as it was. Masters deleted since are dropped by the foreign
 * key's cascade.
 */
import type { Sql } from 'postgres';
import { assembleMasters } from '../catalogue/masters.js';
import type { Reader } from '../catalogue/reader.js';
import type { Db } from './db.js';

const direct: Reader = (_signal, build) => build();

/**
 * PGlite's path (no COPY): pages upserted in place. PostgreSQL builds the table in finish()'s one
 * pass instead (derived-copy.ts); a record is the same text either way.
 */
export async function rebuildMasterRecords(sql: Db, pageSize: number): Promise<void> {
  let after = 0;
  for (;;) {
    const page = await sql<Array<{ master_id: number }>>`SELECT master_id FROM masters WHERE master_id > ${after} ORDER BY master_id LIMIT ${pageSize}`;
    if (page.length === 0) return;
    const records = await assembleMasters(
      // In finish()'s transaction: the same tagged queries, answered with the import's rows.
      sql as Sql,
      direct,
      page.map((row) => row.master_id),
    );
    const ids = records.map((record) => record.master_id);
    const texts = records.map((record) => JSON.stringify(record));
    await sql`
      INSERT INTO master_records (master_id, record)
      SELECT id, record::json FROM unnest(${ids}::int[], ${texts}::text[]) AS page(id, record)
      ON CONFLICT (master_id) DO UPDATE SET record = EXCLUDED.record
      WHERE master_records.record::text IS DISTINCT FROM EXCLUDED.record::text`;
    after = (page[page.length - 1] as { master_id: number }).master_id;
  }
}
