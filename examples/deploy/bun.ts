/** Minimal Bun deploy entry: `bun --conditions=catalogue-source examples/deploy/bun.ts` (or the built packages). */

import { serve } from '@catalogue/host-bun/serve';
import { createServiceFromEnv, scheduleJobs } from '@catalogue/host-kit';

const hosted = await createServiceFromEnv(process.env);
const served = await serve(hosted.service, { port: hosted.env.port, trustProxy: hosted.env.trustProxy, publicOrigin: hosted.env.publicOrigin });
const jobs = scheduleJobs(hosted.service);
console.log(`listening on ${served.url}`);
process.on('SIGTERM', async () => {
  jobs.stop();
  await served.close();
  await hosted.close();
  process.exit(0);
});
