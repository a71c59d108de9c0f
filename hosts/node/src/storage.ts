/**
 * Where the Node host keeps the catalogue and the accounts:
 * - DATABASE_URL set: that PostgreSQL (migrations applied at start);
 * - otherwise the embedded default: PGlite in $CATALOGUE_DATA_DIR/pg behind pglite-socket, so the
 *   same postgres.js code serves it; on first start it is seeded with the Discogs samples in
 *   data/discogs plus generated Bandcamp and festival signals for their artists;
 * - CATALOGUE_STORAGE=memory: everything in process memory on the generated demo catalogue
 *   (fast start for tests and demos; nothing survives a restart).
 */
import { fileURLToPath } from 'node:url';
import type { Accounts, Catalogue, Logger } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue } from '@catalogue/core/memory';
import type { HostEnv } from './env.js';

export interface Storage {
  catalogue: Catalogue;
  accounts: Accounts;
  /** Said in the start banner. */
  description: string;
  /** True when accounts survive a restart. */
  durable: boolean;
  close(): Promise<void>;
}

const SAMPLES_DIR = fileURLToPath(new URL('../../../data/discogs', import.meta.url));

export async function openStorage(env: HostEnv, logger: Logger): Promise<Storage> {
  if (process.env.CATALOGUE_STORAGE === 'memory') {
    const { generateCatalogue } = await import('@catalogue/importer');
    return {
      catalogue: createMemoryCatalogue(generateCatalogue()),
      accounts: createMemoryAccounts(),
      description: 'in-memory generated demo catalogue',
      durable: false,
      close: async () => {},
    };
  }
  const pg = await import('@catalogue/postgres');
  if (env.databaseUrl) {
    const sql = pg.connectPostgres(env.databaseUrl, { max: env.databasePoolMax });
    await pg.migrate(sql);
    return {
      catalogue: pg.createPostgresCatalogue(sql),
      accounts: pg.createPostgresAccounts(sql),
      description: `PostgreSQL ${redact(env.databaseUrl)}`,
      durable: true,
      close: () => sql.end({ timeout: 5 }),
    };
  }

  const embedded = await import('@catalogue/postgres/embedded');
  const server = await embedded.startEmbeddedPostgres({ dataDir: env.dataDir });
  const sql = pg.connectPostgres(server.url, embedded.EMBEDDED_CONNECT_OPTIONS);
  const [state] = await sql<Array<{ seeded: boolean }>>`select exists (select 1 from masters) as seeded`;
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
    description: `embedded PGlite in ${env.dataDir}/pg (Discogs samples + generated signals)`,
    durable: true,
    close: async () => {
      await sql.end({ timeout: 5 });
      await server.stop();
    },
  };
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'DATABASE_URL';
  }
}
