/**
 * The facet tables, built from one generation of search documents:
 * - facet_totals: whole-catalogue counts (no q, no filter), with the same value expressions
 *   live counting uses, so the stored answer is the live one;
 * - facet_codes: every value counted, numbered in (facet, value) order so each facet's codes
 *   are one range, plus each genre key (facet 'genre_key', for the genre filter);
 * - search_style_words (migration 0014) with each master's codes beside every word + style
 *   entry (migration 0016), filled in its index order, so counting the masters of a word and a
 *   style reads a few consecutive pages (catalogue/search.ts, facetsByCodes).
 *
 * On PostgreSQL finish() runs these statements on the fresh documents before they are swapped
 * in, and swaps the tables in with them (derived-copy.ts); PGlite, which has no second session,
 * rebuilds them in place in one transaction after its documents (rebuildFacetTables).
 */
import type { Sql, TransactionSql } from 'postgres';
import { buildKeysAndIndexesLike, keyAndIndexStatementsLike, swapIn } from '../bulk/table-swap.js';
import { facetValuesText, STORED_FACETS } from '../catalogue/facet-values.js';
import { type Db, inTransaction, within } from './db.js';
import type { StagingMode } from './staging.js';

/** The tables built here, in the order the statements fill them. */
export const FACET_TABLES = ['facet_totals', 'facet_codes', 'search_style_words'] as const;

export interface FacetTableNames {
  /** The search documents the tables are built from. */
  documents: string;
  totals: string;
  codes: string;
  styleWords: string;
  /** A scratch table of each master's codes: `create` makes it (a plain or a temporary table). */
  masterCodes: { name: string; create: string };
}

/** Every value a master counts, as (facet, value) rows of `d`, and its genre keys. */
function valuesOfMaster(): string {
  return [
    ...STORED_FACETS.map((facet) => `SELECT '${facet}'::text, unnest(${facetValuesText(facet, 'd')})`),
    `SELECT 'genre_key'::text, unnest(d.genre_keys)`,
  ].join(' UNION ALL ');
}

/** The statements that fill the (empty) tables named, in order. */
export function facetTableStatements(t: FacetTableNames): string[] {
  return [
    ...STORED_FACETS.map(
      (facet) => `
      INSERT INTO ${t.totals} (facet, value, count)
      SELECT '${facet}', v.value, count(*)::int
      FROM ${t.documents} d, LATERAL (SELECT DISTINCT unnest(${facetValuesText(facet, 'd')})) AS v(value)
      WHERE d.kind = 0
      GROUP BY v.value`,
    ),
    // Ordered by facet first: each facet's codes are one range (its min and max code).
    `
      INSERT INTO ${t.codes} (code, facet, value)
      SELECT row_number() OVER (ORDER BY facet, value)::int, facet, value FROM (
        SELECT facet, value FROM ${t.totals}
        UNION ALL
        SELECT DISTINCT 'genre_key', unnest(genre_keys) FROM ${t.documents} WHERE kind = 0
      ) AS v`,
    // One pass over every master's values, hash-joined to their codes and gathered per master;
    // DISTINCT: a master counts a value once, as the DISTINCT of live counting. (A subquery per
    // master took 20.7 s for the 2020-08 mix's 293,000 masters against 2.0 s for this.)
    `
      ${t.masterCodes.create} ${t.masterCodes.name} AS
      SELECT d.id, array_agg(DISTINCT c.code ORDER BY c.code) AS codes
      FROM ${t.documents} d
      CROSS JOIN LATERAL (${valuesOfMaster()}) AS f(facet, value)
      JOIN ${t.codes} c ON c.facet = f.facet AND c.value = f.value
      WHERE d.kind = 0
      GROUP BY d.id`,
    // Every word of every master under each of its style keys, in the index's order (token in
    // byte order, as its COLLATE "C" column), so one word + style range is consecutive rows.
    `
      INSERT INTO ${t.styleWords} (style_key, token, id, codes)
      SELECT s.key, w.lexeme, d.id, coalesce(m.codes, '{}')
      FROM ${t.documents} d
      CROSS JOIN LATERAL unnest(d.style_keys) AS s(key)
      CROSS JOIN LATERAL unnest(d.tsv) AS w
      LEFT JOIN ${t.masterCodes.name} m ON m.id = d.id
      WHERE d.kind = 0
      ORDER BY s.key, w.lexeme COLLATE "C", d.id`,
  ];
}

/** The masters facet_state records: the whole-catalogue answer's total. */
export async function mastersIn(sql: Sql | TransactionSql, documents: string): Promise<number> {
  const [row] = await sql.unsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM ${documents} WHERE kind = 0`);
  return row?.n ?? 0;
}

export async function setFacetState(sql: Sql | TransactionSql, masters: number): Promise<void> {
  await sql`
    INSERT INTO facet_state (singleton, masters) VALUES (true, ${masters})
    ON CONFLICT (singleton) DO UPDATE SET masters = EXCLUDED.masters`;
}

/** The fresh tables a rebuild on PostgreSQL fills, then swaps in (bulk/table-swap.ts). */
export const FACET_TARGETS = FACET_TABLES.map((table) => ({ table, target: `import_${table}` }));
/** The scratch table of each master's codes, dropped by the run itself (and with the targets). */
export const FACET_SCRATCH = 'import_facet_master_codes';

/**
 * Fills the (empty) FACET_TARGETS from `documents` and builds their keys and indexes: one run
 * of statements, in order, for one session (bulk/table-swap.ts, buildKeysAndIndexesLike).
 */
export async function facetTargetsRun(sql: Sql, documents: string): Promise<string[]> {
  const [totals, codes, styleWords] = FACET_TARGETS.map((t) => t.target) as [string, string, string];
  return [
    ...facetTableStatements({ documents, totals, codes, styleWords, masterCodes: { name: FACET_SCRATCH, create: 'CREATE UNLOGGED TABLE' } }),
    `DROP TABLE ${FACET_SCRATCH}`,
    ...(await Promise.all(FACET_TARGETS.map(({ table, target }) => keyAndIndexStatementsLike(sql, table, target)))).flat(),
  ];
}

/**
 * Rebuilds the facet tables from the live documents (PGlite's finish(), and a bench database
 * loaded before migration 0016): on PostgreSQL into fresh tables, indexed, then swapped in with
 * facet_state in one transaction; on PGlite emptied and refilled in one transaction. Either way
 * readers see the old tables until it commits.
 */
export async function rebuildFacetTables(sql: Db, mode: StagingMode): Promise<void> {
  // In finish()'s transaction (PGlite's, or a pool too small for the one pass): in place.
  if (mode !== 'copy' || inTransaction(sql)) {
    await within(sql, async (tx) => {
      for (const table of FACET_TABLES) await tx.unsafe(`DELETE FROM ${table}`);
      const [totals, codes, styleWords] = FACET_TABLES;
      const scratch = { name: 'facet_master_codes', create: 'CREATE TEMPORARY TABLE' };
      for (const statement of facetTableStatements({ documents: 'search_documents', totals, codes, styleWords, masterCodes: scratch })) {
        await tx.unsafe(statement);
      }
      await tx.unsafe(`DROP TABLE ${scratch.name}`);
      await setFacetState(tx, await mastersIn(tx, 'search_documents'));
    });
    return;
  }
  const drop = () => sql.unsafe(`DROP TABLE IF EXISTS ${[...FACET_TARGETS.map((t) => t.target), FACET_SCRATCH].join(', ')}`);
  await drop();
  try {
    for (const { table, target } of FACET_TARGETS) await sql.unsafe(`CREATE TABLE ${target} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await buildKeysAndIndexesLike(sql, [], 1, [await facetTargetsRun(sql, 'search_documents')]);
    const masters = await mastersIn(sql, 'search_documents');
    await sql.begin(async (tx) => {
      for (const { table, target } of FACET_TARGETS) await swapIn(tx, table, target);
      await setFacetState(tx, masters);
    });
  } finally {
    await drop();
  }
}
