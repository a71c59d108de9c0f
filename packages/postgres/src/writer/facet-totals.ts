/**
 * Whole-catalogue facet counts (no q, no filter), recomputed after search_documents with the
 * same value expressions live counting uses, so the stored answer is the live one. Then every
 * value counted is numbered (facet_codes) and each master's values stored as those numbers,
 * each once (master_facets, migration 0015), for counting the masters of a query.
 */
import type { Sql } from 'postgres';
import { facetValuesOf, STORED_FACETS } from '../catalogue/facet-values.js';

export async function recomputeFacetTotals(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`DELETE FROM facet_totals`;
    for (const facet of STORED_FACETS) {
      await tx`
        INSERT INTO facet_totals (facet, value, count)
        SELECT ${facet}, v.value, count(*)::int
        FROM search_documents d, LATERAL (SELECT DISTINCT unnest(${facetValuesOf(tx, facet, 'd')})) AS v(value)
        WHERE d.kind = 0
        GROUP BY v.value`;
    }
    await tx`DELETE FROM master_facets`;
    await tx`DELETE FROM facet_codes`;
    await tx`
      INSERT INTO facet_codes (code, facet, value)
      SELECT row_number() OVER (ORDER BY facet, value)::int, facet, value FROM facet_totals`;
    // One pass over every master's values, hash-joined to their codes and gathered per master;
    // DISTINCT: a master counts a value once, as the DISTINCT of live counting. A subquery per
    // master (a UNION of its values, an index probe per value) took 20.7 s for the 2020-08 mix's
    // 293,000 masters against 2.0 s for this, the same rows (bench:import, issue 13).
    const valuesOfMaster = STORED_FACETS.map((facet) => tx`SELECT ${facet}::text, unnest(${facetValuesOf(tx, facet, 'd')})`).reduce(
      (all, part) => tx`${all} UNION ALL ${part}`,
    );
    await tx`
      INSERT INTO master_facets (id, genre_keys, codes)
      SELECT d.id, d.genre_keys, COALESCE(coded.codes, '{}'::int[])
      FROM search_documents d
      LEFT JOIN (
        SELECT d.id, array_agg(DISTINCT c.code ORDER BY c.code) AS codes
        FROM search_documents d
        CROSS JOIN LATERAL (${valuesOfMaster}) AS f(facet, value)
        JOIN facet_codes c ON c.facet = f.facet AND c.value = f.value
        WHERE d.kind = 0
        GROUP BY d.id
      ) AS coded ON coded.id = d.id
      WHERE d.kind = 0`;
    await tx`
      INSERT INTO facet_state (singleton, masters)
      SELECT true, count(*)::int FROM search_documents WHERE kind = 0
      ON CONFLICT (singleton) DO UPDATE SET masters = EXCLUDED.masters`;
  });
}
