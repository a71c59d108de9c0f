/**
 * Links that depend on more than one table, recomputed after a run: which labels a master's
 * main release carries (the label → masters dossier join) and how many masters each agent has.
 */
import type { TransactionSql } from 'postgres';
import { keyAndIndexStatementsLike, setLoad, swapIn } from '../bulk/table-swap.js';
import { type Db, within } from './db.js';

/**
 * An empty master_labels (a first import) is filled whole: rows into a fresh table, keys and
 * indexes after, swapped in. Inserted into the live table, each of a million rows paid its
 * index entries and its foreign-key check: 20 of the 46 s of this step at 1 M masters (issue 13).
 */
async function fillEmptyMasterLabels(tx: TransactionSql): Promise<boolean> {
  const [row] = await tx<Array<{ empty: boolean }>>`SELECT NOT EXISTS (SELECT 1 FROM master_labels) AS empty`;
  if (!row?.empty) return false;
  await setLoad(tx);
  await tx`DROP TABLE IF EXISTS import_master_labels`;
  await tx`CREATE TABLE import_master_labels (LIKE master_labels INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`;
  await tx`INSERT INTO import_master_labels (label_id, master_id) SELECT label_id, master_id FROM wanted_master_labels`;
  for (const statement of await keyAndIndexStatementsLike(tx, 'master_labels', 'import_master_labels')) await tx.unsafe(statement);
  await swapIn(tx, 'master_labels', 'import_master_labels');
  return true;
}

export async function recomputeLinks(db: Db): Promise<void> {
  await within(db, async (tx) => {
    // Only the differences are written, so a re-import without changes rewrites nothing.
    await tx`
      CREATE TEMPORARY TABLE wanted_master_labels ON COMMIT DROP AS
      SELECT DISTINCT (credit->>'discogs_id')::int AS label_id, m.master_id
      FROM masters m
      JOIN releases r ON r.release_id = m.main_release_id
      CROSS JOIN LATERAL jsonb_array_elements(r.doc->'labels') AS credit
      WHERE credit->>'discogs_id' IS NOT NULL`;
    if (!(await fillEmptyMasterLabels(tx))) {
      await tx`
        DELETE FROM master_labels ml
        WHERE NOT EXISTS (SELECT 1 FROM wanted_master_labels w WHERE w.label_id = ml.label_id AND w.master_id = ml.master_id)`;
      // Only the missing rows: an unchanged link costs no index probe.
      await tx`
        INSERT INTO master_labels (label_id, master_id)
        SELECT label_id, master_id FROM wanted_master_labels w
        WHERE NOT EXISTS (SELECT 1 FROM master_labels ml WHERE ml.label_id = w.label_id AND ml.master_id = w.master_id)`;
    }
    await tx`
      UPDATE artists a SET master_count = coalesce(c.n, 0)
      FROM artists a2 LEFT JOIN (SELECT artist_id, count(*)::int AS n FROM master_artists GROUP BY artist_id) c ON c.artist_id = a2.discogs_id
      WHERE a.discogs_id = a2.discogs_id AND a.master_count IS DISTINCT FROM coalesce(c.n, 0)`;
    await tx`
      UPDATE labels l SET master_count = coalesce(c.n, 0)
      FROM labels l2 LEFT JOIN (SELECT label_id, count(*)::int AS n FROM master_labels GROUP BY label_id) c ON c.label_id = l2.discogs_id
      WHERE l.discogs_id = l2.discogs_id AND l.master_count IS DISTINCT FROM coalesce(c.n, 0)`;
  });
}
