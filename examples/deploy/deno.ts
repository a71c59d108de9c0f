/**
 * Minimal Deno / Deno Deploy entry: the project's deploy entry is hosts/deno/src/deploy.ts; this
 * is the same in a few lines. Run from the repository root (deno.json maps the workspace).
 */
import { createServiceFromEnv } from '@catalogue/host-kit';
import { cronJobs, serve } from '../../hosts/deno/src/serve.ts';

const hosted = await createServiceFromEnv(Deno.env.toObject());
const served = await serve(hosted.service, { port: hosted.env.port, trustProxy: hosted.env.trustProxy, publicOrigin: hosted.env.publicOrigin });
console.log(`listening on ${served.url}`);
cronJobs(hosted.service);
