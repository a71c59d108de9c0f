/**
 * `npm run start:bun`: the Bun host on the environment of docs/decisions.md §1 (host-kit's
 * runHost). Without DATABASE_URL it serves the in-memory demo (as CATALOGUE_STORAGE=memory)
 * and prints the admin token and a ready demo key; runJobs runs every minute.
 */
import { runHost } from '@catalogue/host-kit';
import { pinoLogger } from '@catalogue/host-kit/pino';
import { serve } from './serve.js';

// Buffered JSON lines through pino's sonic-boom destination, as on Node (issue 31).
await runHost({ name: `bun ${Bun.version}`, serve, logger: pinoLogger }, process.env);
