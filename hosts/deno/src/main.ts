/**
 * `npm run start:deno`: the Deno host on the environment of docs/decisions.md §1 (host-kit's
 * runHost). Without DATABASE_URL it serves the in-memory demo (as CATALOGUE_STORAGE=memory) and
 * prints the admin token and a ready demo key; Deno.cron runs the jobs every minute.
 */
import { runHost } from '@catalogue/host-kit';
import { cronJobs, serve } from './serve.ts';

// A configuration refused at start prints its message, not a stack trace (as the Node host does).
await runHost({ name: `deno ${Deno.version.deno}`, serve, scheduleJobs: cronJobs }, Deno.env.toObject()).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  Deno.exit(1);
});
