/**
 * The files one request walks through, counted from what runs (issue 38's acceptance: the walk
 * of `GET /api/v1/masters/:id` on the Node host with PostgreSQL + Redis, cold caches):
 *
 *   node --conditions=catalogue-source --import tsx tools/request-walk.ts [path]
 *
 * It serves the Node host in this process on a database of its own (the fixture catalogue,
 * migrated and loaded) and a redis-server of its own on a spare port, issues a contract key
 * through the admin route, then asks V8 for precise coverage around exactly one request of that
 * key (default `/api/v1/masters/113`): caches are cold for it (the key was never admitted, the
 * record never read). A file of this repository is on the walk when at least one of its
 * functions ran for that request; dependencies (node_modules) and Node's own modules are not.
 * It prints each file with its lines, then the count and the sum: what a newcomer following
 * the request has to read.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServiceFromEnv } from '@catalogue/host-kit';
import { serve } from '../hosts/node/src/serve.js';
import { createPostgresDatabase, loadCatalogue } from '../test/conformance/databases.js';
import { createRedisProcess } from '../test/limits/redis-process.js';
import { fixtureData } from '../test/support/fixture-data.js';

const ROOT = join(import.meta.dirname, '..');
const PATH = process.argv[2] ?? '/api/v1/masters/113';
const ADMIN_TOKEN = 'request-walk-admin-token-0123456789abcdef';

const db = await createPostgresDatabase({ max: 2 });
const redis = await createRedisProcess();
await redis.start();
try {
  await loadCatalogue(db, fixtureData(), null);
  const hosted = await createServiceFromEnv(
    { DATABASE_URL: db.url, REDIS_URL: redis.url, ADMIN_TOKEN, SECRET_KEY: 'a'.repeat(64), LOG_LEVEL: 'info' },
    { logger: { log() {} } },
  );
  const server = await serve(hosted.service, { port: 0, hostname: '127.0.0.1', trustProxy: false });
  try {
    const issued = await fetch(`${server.url}/api/v1/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'walk@example.com' }),
    });
    const { key } = (await issued.json()) as { key: string };
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    // Taking coverage resets the counters: what the next take reports ran for the request alone.
    await session.post('Profiler.takePreciseCoverage');
    const answer = await fetch(`${server.url}${PATH}`, { headers: { 'x-api-key': key } });
    await answer.arrayBuffer();
    // The slot's release and the access line run right after the answer (waitUntil).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { result } = await session.post('Profiler.takePreciseCoverage');
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
    const files = new Map<string, number>();
    for (const script of result) {
      if (!script.url.startsWith('file:')) continue;
      const file = relative(ROOT, fileURLToPath(script.url));
      if (file.startsWith('..') || file.includes('node_modules') || file.startsWith('tools/') || file.startsWith('test/')) continue;
      if (!script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0)) continue;
      files.set(file, readFileSync(join(ROOT, file), 'utf8').split('\n').length);
    }
    const sorted = [...files].sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [file, lines] of sorted) console.log(`${String(lines).padStart(5)}  ${file}`);
    const total = sorted.reduce((sum, [, lines]) => sum + lines, 0);
    console.log(`\n${PATH} answered ${answer.status}: ${files.size} files, ${total} lines`);
  } finally {
    await server.close();
    await hosted.close();
  }
} finally {
  await redis.kill();
  await db.drop();
}
