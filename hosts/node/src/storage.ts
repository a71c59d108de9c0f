/**
 * The Node host's embedded default (no DATABASE_URL, no CATALOGUE_STORAGE): PGlite in
 * $CATALOGUE_DATA_DIR/pg behind pglite-socket, so the same postgres.js code serves it. On first
 * start it is seeded with the Discogs samples in data/discogs plus generated Bandcamp and
 * festival signals for their artists. Memory and DATABASE_URL storage come from host-kit.
 */
import { fileURLToPath } from 'node:url';
import type { Logger } from '@catalogue/core';
import type { HostStorage } from '@catalogue/host-kit';

const SAMPLES_DIR = fileURLToPath(new URL('../../../data/discogs', import.meta.url));

export async function openEmbeddedStorage(dataDir: string, logger: Logger): Promise<HostStorage> {
  const pg = await import('@catalogue/postgres');
  const embedded = await import('@catalogue/postgres/embedded');
  const server = await embedded.startEmbeddedPostgres({ dataDir });
  const sql = pg.connectPostgres(server.url, embedded.EMBEDDED_CONNECT_OPTIONS);
  const guard = pg.guardFor(sql, { logger });
  // derived_stale (migration 0009) is set by a migration that adds derived data (0010) or an
  // import that stopped before finish(): one flag, instead of scanning what each migration left.
  const [state] = await sql<Array<{ seeded: boolean; stored: boolean; stale: boolean }>>`
    select exists (select 1 from masters) as seeded, exists (select 1 from master_records) as stored,
           (select derived_stale from catalogue_state) as stale`;
  if (state?.seeded && (!state.stored || state.stale)) {
    // A data dir seeded before migration 0007 (no stored master records), or whose derived data
    // is stale (before 0010: search documents without fields, no agents for credits; or an
    // interrupted import): build its derived data once, as `catalogue refresh` would; the
    // routes serve masters live until then.
    const started = Date.now();
    // Forced: nothing was imported, so the import's stale flag would let finish() skip it.
    await pg.createPostgresWriter(sql, embedded.EMBEDDED_WRITER_OPTIONS).finish({ force: true });
    logger.log({ level: 'info', kind: 'embedded.refreshed', ms: Date.now() - started });
  }
  if (!state?.seeded) {
    const started = Date.now();
    const { loadSampleCatalogue, writeCatalogue } = await import('@catalogue/importer/seed');
    const data = await loadSampleCatalogue(SAMPLES_DIR);
    await writeCatalogue(data, pg.createPostgresWriter(sql, embedded.EMBEDDED_WRITER_OPTIONS));
    logger.log({ level: 'info', kind: 'embedded.seeded', masters: data.masters.length, artists: data.artists.length, ms: Date.now() - started });
  }
  return {
    catalogue: pg.createPostgresCatalogue(sql),
    accounts: pg.createPostgresAccounts(sql),
    description: `embedded PGlite in ${dataDir}/pg (Discogs samples + generated signals)`,
    probes: [pg.postgresProbe(sql)],
    metricSources: { inFlight: () => ({ primary: guard.inFlight }), outboxDepth: () => pg.outboxDepth(sql) },
    stopping: () => server.stopping(),
    close: async () => {
      await sql.end({ timeout: 5 });
      await server.stop();
    },
  };
}
