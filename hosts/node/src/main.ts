/**
 * `npm start`: the Node host on the environment of docs/decisions.md §1 (host-kit's runHost).
 * With nothing set it runs the embedded default (storage.ts; CATALOGUE_STORAGE=memory for the
 * in-memory demo), migrates, serves /docs in front of the service, and prints the URL, the
 * admin token and a ready ck_test_ demo key.
 */
import { runHost } from '@catalogue/host-kit';
import { withDocs } from './docs.js';
import { serve } from './serve.js';
import { openEmbeddedStorage } from './storage.js';

runHost(
  {
    name: `node ${process.version}`,
    serve,
    // Without CATALOGUE_STORAGE or DATABASE_URL: the embedded PGlite default (docs/decisions.md §1).
    openStorage: (env, logger) => (process.env.CATALOGUE_STORAGE || env.databaseUrl ? Promise.resolve(undefined) : openEmbeddedStorage(env.dataDir, logger)),
    wrap: withDocs,
    migrate: true,
  },
  process.env,
).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
