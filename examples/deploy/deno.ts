/**
 * Minimal Deno / Deno Deploy entry: the project's deploy entry is hosts/deno/src/deploy.ts; this
 * is the same in four lines. Run from the repository root (deno.json maps the workspace).
 */
import { createServiceFromEnv } from '@catalogue/host-kit';
import { cronJobs, serveWithDeno } from '../../hosts/deno/src/serve.ts';

const hosted = await createServiceFromEnv(Deno.env.toObject());
serveWithDeno(hosted.service, {
  port: hosted.env.port,
  trustProxy: hosted.env.trustProxy,
  publicOrigin: hosted.env.publicOrigin,
  onListen: ({ port }) => console.log(`listening on http://localhost:${port}`),
});
cronJobs(hosted.service);
