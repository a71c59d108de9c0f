/**
 * `npm run start:bun`: the Bun host on the environment of docs/decisions.md §1 (host-kit's
 * runHost). Without DATABASE_URL it serves the in-memory demo (as CATALOGUE_STORAGE=memory)
 * and prints the admin token and a ready demo key; runJobs runs every minute.
 */
import { runHost } from '@catalogue/host-kit';
import { bufferedLogger } from '@catalogue/host-kit/buffered-logger';
import { serve } from './serve.js';

// JSON lines written once per event-loop turn, as on Node (issue 31). A configuration refused
// at start prints its message, not a stack trace (as the Node host does).
await runHost({ name: `bun ${Bun.version}`, serve, logger: bufferedLogger }, process.env).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
