import type { Logger } from '@catalogue/core';

/**
 * SIGTERM / SIGINT for the process hosts (Node, Bun): run the steps once, in order — stop the
 * jobs, stop accepting and finish in-flight requests, close the stores — then exit 0, once a
 * buffering logger (host-kit's bufferedLogger) has written every line, the access lines of the last
 * requests included.
 */
export function exitGracefullyOnSignals(logger: Logger & { flush?(): Promise<void> }, steps: Array<() => unknown>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ level: 'info', kind: 'server.stopping', signal });
    for (const step of steps) await step();
    logger.log({ level: 'info', kind: 'server.stopped' });
    await logger.flush?.();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
