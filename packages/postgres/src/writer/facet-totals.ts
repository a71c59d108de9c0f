/**
 * Whole-catalogue facet counts (no q, no filter), recomputed after search_documents with the
 * same value expressions live counting uses, so the stored answer is the live one.
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
    await tx`
      INSERT INTO facet_state (singleton, masters)
      SELECT true, count(*)::int FROM search_documents WHERE kind = 0
      ON CONFLICT (singleton) DO UPDATE SET masters = EXCLUDED.masters`;
  });
}
