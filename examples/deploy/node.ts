/** Minimal Node deploy entry: the configuration table → service → node:http, jobs every minute. */
import { createServiceFromEnv, scheduleJobs } from '@catalogue/host-kit';
import { createNodeServer, listen } from '@catalogue/host-node/serve';

const hosted = await createServiceFromEnv(process.env);
const running = await listen(createNodeServer(hosted.service, { trustProxy: hosted.env.trustProxy, publicOrigin: hosted.env.publicOrigin }), hosted.env.port);
const jobs = scheduleJobs(hosted.service);
console.log(`listening on ${running.url}`);
process.on('SIGTERM', async () => {
  jobs.stop();
  await running.close();
  await hosted.close();
  process.exit(0);
});
