/**
 * The Logger the process hosts (Node, Bun) inject (issue 31): core's JSON lines (consoleLogger's
 * format: `time`, the process's fields, the record) written to stdout buffered, instead of one
 * console.log per line, which at the Node host's line rate cost a quarter of its throughput.
 *
 * Buffering: the lines of one event-loop turn are joined and written at the end of the turn
 * (setImmediate), or as soon as they reach WRITE_CHARS: one write(2) carries every line a busy
 * turn logged, an idle host's line is out at the end of its turn, no timer holds a line back.
 * The writes are sonic-boom's (pino's destination): synchronous, so no write is ever in flight
 * when the process exits, and at most MAX_WRITE bytes of whole lines each, so the Node host's
 * workers, which share one stdout, do not cut each other's lines.
 *
 * A full pipe (a log reader that is behind): stdout is non-blocking, so the write answers
 * EAGAIN instead of blocking the event loop; sonic-boom keeps what was not written and writes
 * it first the next time, which is the next turn that logs or RETRY_MS later. A closed one
 * (EPIPE): the lines go nowhere, as console.log's would.
 *
 * Nothing logged is lost at a graceful close or a fatal error: `flush()` (before a graceful
 * exit) writes until nothing is left, waiting for a reader that is behind up to FLUSH_WAIT_MS;
 * on `process.exit` and an uncaught exception the process's `exit` event writes what is left
 * synchronously, retrying a full pipe for up to EXIT_WAIT_MS. Only a `kill -9` loses the lines
 * of the turn it interrupts (and what a stalled reader left waiting).
 *
 * Why sonic-boom and not pino's logger around it: pino's log methods serialise a record key by
 * key in JavaScript, slower than the one JSON.stringify of our flat records, and their line
 * would differ from the one Deno and Lambda write (the fleet test and log shippers parse one
 * format); pino's asynchronous destination hands every write to libuv's thread pool, which cost
 * about 3 µs more CPU per line on the 2-core bench machine than one write(2) per turn, and its
 * exit flush cannot wait for a write in flight (sonic-boom issue 101). sonic-boom is the part of
 * pino that does the writing (EAGAIN, partial writes, chunking), maintained with it.
 */
import { consoleLogger, type Logger, type LogLevel } from '@catalogue/core';
import SonicBoom from 'sonic-boom';

/** A Logger that buffers: `flush()` resolves once every line logged so far reached its fd. */
export interface BufferedLogger extends Logger {
  flush(): Promise<void>;
}

/** Most bytes per write(2): PIPE_BUF, what a pipe writes whole even with other writers on it. */
const MAX_WRITE = 4096;
/** A turn's lines are written before they reach this many characters (under MAX_WRITE bytes). */
const WRITE_CHARS = 3584;
/** How soon lines a full pipe refused are tried again when no new line comes. */
const RETRY_MS = 20;
/** How long a graceful close waits for a reader that is behind. */
const FLUSH_WAIT_MS = 5_000;
/** How long the process's exit waits for a reader that is behind. */
const EXIT_WAIT_MS = 2_000;

/**
 * `fields` go on every line (the Node host's workers: their `pid`), serialised once. `fd` is
 * stdout unless a test says otherwise.
 */
export function bufferedLogger(level: LogLevel, fields: Record<string, string | number> = {}, fd = 1): BufferedLogger {
  // Node and Bun make stdout non-blocking when process.stdout is first used: do it before the
  // first write, so that a full pipe answers EAGAIN rather than blocking the event loop.
  if (fd === 1) void process.stdout.fd;
  /** Until when a full pipe is waited for (Date.now()); 0 while the process runs. */
  let waitUntil = 0;
  const destination = new SonicBoom({ fd, sync: true, minLength: 1, maxWrite: MAX_WRITE, retryEAGAIN: () => Date.now() < waitUntil });
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  destination.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EAGAIN' && error.code !== 'EBUSY') {
      closed = true;
      return;
    }
    // sonic-boom kept the refused lines and writes them first next time.
    retry ??= setTimeout(() => {
      retry = undefined;
      destination.flush();
    }, RETRY_MS);
    retry.unref?.();
  });

  let turn = '';
  let writeQueued = false;
  const write = () => {
    writeQueued = false;
    if (turn === '') return;
    const lines = turn;
    turn = '';
    if (!closed) destination.write(lines);
  };
  const logger = consoleLogger(
    level,
    (line) => {
      if (turn.length + line.length >= WRITE_CHARS) write();
      turn += `${line}\n`;
      if (!writeQueued) {
        writeQueued = true;
        setImmediate(write);
      }
    },
    fields,
  );

  /** One attempt to write everything buffered: false if a full pipe refused some of it. */
  const flushOnce = () =>
    new Promise<boolean>((resolve) => {
      write();
      if (closed) return resolve(true);
      // The callback's error after a write is fsync's (EINVAL on a pipe): the lines are out.
      destination.flush((error?: NodeJS.ErrnoException) => resolve(error?.code !== 'EAGAIN' && error?.code !== 'EBUSY'));
    });

  process.on('exit', () => {
    waitUntil = Date.now() + EXIT_WAIT_MS;
    try {
      write();
      if (!closed) destination.flushSync();
    } catch {
      // The reader did not come back in time: what is left is lost with the process.
    }
  });

  return {
    log: logger.log,
    async flush() {
      const giveUpAt = Date.now() + FLUSH_WAIT_MS;
      while (!(await flushOnce()) && Date.now() < giveUpAt) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    },
  };
}
