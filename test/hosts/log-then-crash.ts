/**
 * A process that logs LINES lines through host-kit's bufferedLogger in one turn, then dies of an
 * uncaught exception in the next: access-log-shutdown.test.ts counts the lines that reach its
 * stdout. Run by Node (tsx) or Bun.
 */
import { bufferedLogger } from '@catalogue/host-kit/buffered-logger';

const lines = Number(process.env.LINES ?? 1000);
const logger = bufferedLogger('info');
for (let i = 0; i < lines; i++) logger.log({ level: 'info', kind: 'http.access', request_id: `line-${i}`, method: 'GET', route: '/healthz', status: 200 });
setImmediate(() => {
  throw new Error('fatal after logging');
});
