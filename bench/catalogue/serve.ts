/**
 * The serving process of the bench (a child of run.ts, so the load generator never shares its
 * event loop): the service on the PostgreSQL catalogue behind the Node host bridge, on a
 * loopback port. Accounts and the limiter are the in-process ones: the bench measures the
 * catalogue's queries, and a contract key with raised limits never sees a 429. The rest is
 * wired as host-kit's serviceFromEnv wires a DATABASE_URL host: the native SHA-256 (ETags of
 * every record answer) and the master records kept per catalogue generation, CATALOGUE_CACHE_MB
 * (64) of them; CATALOGUE_CACHE_MB=0 measures the database path alone; and the filter of the
 * vocabulary that sends typos to their corrections first, CATALOGUE_TYPO_HINT_MB (16; 0: none).
 * Prints one JSON line `{ url, key }` on stdout once listening; stops on SIGTERM.
 *
 *   node --conditions=catalogue-source --import tsx bench/catalogue/serve.ts <database-url>
 */
import { createService, issueCustomerKey } from '@catalogue/core';
import { createMemoryAccounts, createMemoryLimiter } from '@catalogue/core/memory';
import { nativeHasher } from '@catalogue/host-kit';
import { connectPostgres, createPostgresCatalogue, RecordCache, VocabularyHint, watchCatalogueGeneration } from '@catalogue/postgres';
import { createNodeServer, listen } from '../../hosts/node/src/serve.js';

const url = process.argv[2];
if (!url) throw new Error('usage: serve.ts <database-url>');

const sql = connectPostgres(url, { max: Number(process.env.DATABASE_POOL_MAX ?? 10) });
const accounts = createMemoryAccounts();
const cacheMb = Number(process.env.CATALOGUE_CACHE_MB ?? 64);
const generation = watchCatalogueGeneration(sql);
await generation.ready;
const recordCache = cacheMb > 0 ? new RecordCache(generation, cacheMb * 1024 * 1024) : undefined;
const typoHintMb = Number(process.env.CATALOGUE_TYPO_HINT_MB ?? 16);
const vocabularyHint = typoHintMb > 0 ? new VocabularyHint(sql, generation, { maxBytes: typoHintMb * 1024 * 1024 }) : undefined;
await vocabularyHint?.loaded;
const service = createService(
  {
    catalogue: createPostgresCatalogue(sql, { ...(recordCache ? { recordCache } : {}), ...(vocabularyHint ? { vocabularyHint } : {}) }),
    accounts,
    limiter: createMemoryLimiter(),
    logger: { log() {} },
    hasher: nativeHasher(),
  },
  { baseUrl: 'http://127.0.0.1' },
);
const issued = await issueCustomerKey(
  accounts,
  {
    email: 'bench@example.com',
    tier: 'contract_2000',
    environment: 'live',
    limits: { burst_per_minute: 1e9, quota_per_month: 1e12, concurrency: 1000 },
  },
  new Date(),
);
const running = await listen(createNodeServer(service, { trustProxy: false }), 0, '127.0.0.1', 1_000);
const address = running.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, key: issued.plaintext })}\n`);

process.on('SIGTERM', () => {
  void running
    .close()
    .then(() => generation.close())
    .then(() => sql.end({ timeout: 2 }))
    .then(() => process.exit(0));
});
