/**
 * Embedding the catalogue API in an existing Hono app: `app.mount` hands /catalogue/* to the
 * service's fetch handler with the prefix stripped; the app's own routes stay as they are.
 */
import type { Service } from '@catalogue/core';
import { Hono } from 'hono';

export function createApp(service: Service): Hono {
  const app = new Hono();
  app.get('/', (c) => c.text('my existing app'));
  app.mount('/catalogue', (request) => service.fetch(request, { clientIp: request.headers.get('x-forwarded-for') ?? 'unknown' }));
  return app;
}

// `npm start -w examples/hono-app`: the in-memory demo inside the app on port 3000.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [{ serve }, { createServiceFromEnv }] = await Promise.all([import('@hono/node-server'), import('@catalogue/host-kit')]);
  const { service } = await createServiceFromEnv({ ...process.env, CATALOGUE_STORAGE: 'memory', BASE_URL: 'http://localhost:3000/catalogue' });
  serve({ fetch: createApp(service).fetch, port: 3000 }, () => console.log('app on http://localhost:3000, catalogue under /catalogue'));
}
