/**
 * The Logger the process hosts (Node, Bun) inject (issue 31): pino writing the same JSON lines
 * as core's consoleLogger (`level` as its name, `time` as an ISO string, then the record's
 * fields) to stdout through pino's sonic-boom destination, buffered.
 *
 * Why pino rather than our own: a maintained logger whose destination solves what a fast
 * logger must — writes off the event loop, coalesced while one is in flight, retried on
 * EAGAIN (stdout is a non-blocking pipe), stopped on EPIPE, flushed synchronously when the
 * process exits (`process.exit`, an uncaught exception: its on-exit hook) — and the logger log
 * shippers already parse. console.log makes one write(2) per line and blocks the line's turn on
 * it: at the Node host's line rate that was a quarter of its throughput.
 *
 * Buffering: a line is handed to the fd at once unless a write is already in flight; the lines
 * logged meanwhile leave together when it completes (at most 4 KB per write, so writes from
 * several processes on one pipe — the Node host's workers — never cut a line: PIPE_BUF). So
 * under load one write carries many lines, and an idle host's line is out within a write.
 * Nothing waits for a timer. What can be lost is what a `kill -9` finds buffered; `flush()`
 * (graceful close) waits until every line reached the fd, including one write in flight,
 * which the exit hook's synchronous flush cannot wait for (sonic-boom issue 101).
 */
import type { Logger, LogLevel, LogRecord } from '@catalogue/core';
import pino from 'pino';

/** A Logger that buffers: `flush()` resolves once every line logged so far reached its fd. */
export interface BufferedLogger extends Logger {
  flush(): Promise<void>;
}

/** Most bytes per write(2): PIPE_BUF, the size a pipe writes whole even with other writers on it. */
const MAX_WRITE = 4096;
/** How long a graceful close waits for stdout's reader; the exit hook then writes what is left. */
const FLUSH_WAIT_MS = 5_000;

/**
 * `fields` go on every line (the Node host's workers: their `pid`), serialised once by pino
 * rather than spread into each record. `fd` is stdout unless a test says otherwise.
 */
export function pinoLogger(level: LogLevel, fields: Record<string, string | number> = {}, fd = 1): BufferedLogger {
  // minLength 1: write as soon as nothing is in flight (as 0 would), but keep flush(cb), which
  // sonic-boom makes a no-op at 0.
  const destination = pino.destination({ dest: fd, sync: false, minLength: 1, maxWrite: MAX_WRITE });
  const log = pino(
    {
      level,
      base: fields,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // The record's own `level` is pino's level, written once by the formatter above.
      serializers: { level: dropped },
    },
    destination,
  );
  return {
    log(record: LogRecord) {
      log[record.level](record);
    },
    flush: () =>
      new Promise<void>((resolve) => {
        // The callback's error is fsync's on a pipe or socket (EINVAL): the lines are out. A
        // reader that stopped reading must not hold the close forever.
        const gaveUp = setTimeout(resolve, FLUSH_WAIT_MS);
        destination.flush(() => {
          clearTimeout(gaveUp);
          resolve();
        });
      }),
  };
}

function dropped(): undefined {
  return undefined;
}
