/** Minimal Node deploy entry: the configuration table → service → node:http, jobs every minute. */

import { createServiceFromEnv, scheduleJobs } from '@catalogue/host-kit';
import { serve } from '@catalogue/host-node/serve';

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
