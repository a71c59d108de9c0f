/**
 * Brings an already loaded bench database up to the current schema and derived data that
 * needs no reload: pending migrations, the whole-catalogue facet totals, the stored master
 * records (built when a database loaded before migration 0007 has none), the one-word search
 * terms and style words (built when a database loaded before migration 0013 or 0014 has none), VACUUM (ANALYZE).
 *
 *   node --conditions=catalogue-source --import tsx bench/catalogue/refresh.ts <database-url>
 */
import { connectPostgres, migrate } from '@catalogue/postgres';
import { recomputeFacetTotals } from '../../packages/postgres/src/writer/facet-totals.js';
import { rebuildMasterRecords } from '../../packages/postgres/src/writer/master-records.js';
import { rebuildSearchTerms } from '../../packages/postgres/src/writer/search-terms.js';
import { vacuumCatalogue } from '../../packages/postgres/src/writer/vacuum.js';

const url = process.argv[2];
if (!url) throw new Error('usage: refresh.ts <database-url>');
const sql = connectPostgres(url, { max: 1, statementTimeoutMs: 0 });
try {
  const applied = await migrate(sql);
  await recomputeFacetTotals(sql);
  const [records] = await sql<Array<{ stored: boolean }>>`SELECT exists (SELECT 1 FROM master_records) AS stored`;
  if (!records?.stored) await rebuildMasterRecords(sql, 5_000);
  const [terms] = await sql<Array<{ stored: boolean }>>`SELECT exists (SELECT 1 FROM search_terms) AND exists (SELECT 1 FROM search_style_words) AS stored`;
  if (!terms?.stored) await rebuildSearchTerms(sql, 'copy');
  await vacuumCatalogue(sql);
  process.stderr.write(
    `refreshed: migrations applied ${applied.join(', ') || 'none'}; facet totals recomputed; ${records?.stored ? '' : 'master records built; '}${terms?.stored ? '' : 'search terms built; '}vacuumed\n`,
  );
} finally {
  await sql.end({ timeout: 5 });
}
