/**
 * `npm run start:bun`: the Bun host on the environment of docs/decisions.md §1 (host-kit's
 * runHost). Without DATABASE_URL it serves the in-memory demo (as CATALOGUE_STORAGE=memory)
 * and prints the admin token and a ready demo key; runJobs runs every minute.
 */
import { runHost } from '@catalogue/host-kit';
import { serve } from './serve.js';

// A configuration refused at start prints its message, not a stack trace (as the Node host does).
await runHost({ name: `bun ${Bun.version}`, serve }, process.env).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
