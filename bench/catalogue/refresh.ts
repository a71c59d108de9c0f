/**
 * Brings an already loaded bench database up to the current schema and derived data that
 * needs no reload: pending migrations, the stored master records (built when a database loaded
 * before migration 0007 has none), the one-word search terms (before 0013), the facet tables
 * with the word + style entries and their codes (built when a database loaded before 0016 has
 * none), VACUUM (ANALYZE) when anything was built.
 *
 *   node --conditions=catalogue-source --import tsx bench/catalogue/refresh.ts <database-url>
 */
import { connectPostgres, migrate } from '@catalogue/postgres';
import { rebuildFacetTables } from '../../packages/postgres/src/writer/facet-tables.js';
import { rebuildMasterRecords } from '../../packages/postgres/src/writer/master-records.js';
import { rebuildSearchTerms } from '../../packages/postgres/src/writer/search-terms.js';
import { vacuumCatalogue } from '../../packages/postgres/src/writer/vacuum.js';

const url = process.argv[2];
if (!url) throw new Error('usage: refresh.ts <database-url>');
const sql = connectPostgres(url, { max: 1, statementTimeoutMs: 0 });
try {
  const applied = await migrate(sql);
  const [records] = await sql<Array<{ stored: boolean }>>`SELECT exists (SELECT 1 FROM master_records) AS stored`;
  if (!records?.stored) await rebuildMasterRecords(sql, 5_000);
  const [terms] = await sql<Array<{ stored: boolean }>>`SELECT exists (SELECT 1 FROM search_terms) AS stored`;
  if (!terms?.stored) await rebuildSearchTerms(sql, 'copy');
  const [facets] = await sql<Array<{ stored: boolean }>>`
    SELECT exists (SELECT 1 FROM facet_state) AND exists (SELECT 1 FROM search_style_words WHERE codes IS NOT NULL) AS stored`;
  if (!facets?.stored) await rebuildFacetTables(sql, 'copy');
  const built = [records?.stored ? '' : 'master records', terms?.stored ? '' : 'search terms', facets?.stored ? '' : 'facet tables'].filter(Boolean);
  if (built.length > 0 || applied.length > 0) await vacuumCatalogue(sql);
  process.stderr.write(`refreshed: migrations applied ${applied.join(', ') || 'none'}; built ${built.join(', ') || 'nothing'}\n`);
} finally {
  await sql.end({ timeout: 5 });
}
