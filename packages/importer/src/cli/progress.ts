import cliProgress from 'cli-progress';
import { formatCount } from './tally.js';

/** A progress display for one file or one generated table. */
export interface Progress {
  /** `done` out of `total` (bytes of a file); `rows` written so far. */
  update(done: number, rows: number): void;
  stop(): void;
}

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  /** The clock of the plain progress lines off a terminal (default performance.now; tests inject one). */
  now?(): number;
}

/** Off a terminal (cron, systemd, CI logs): a plain line at least this often while a step runs. */
export const PLAIN_PROGRESS_EVERY_MS = 10_000;

const clockOf = (stream: ProgressStream) => stream.now?.bind(stream) ?? (() => performance.now());
const secondsText = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Progress as plain lines for a stream that is not a terminal (issue 30 item 14): where a bar
 * would be drawn, `<label>: started`, then a line at most every PLAIN_PROGRESS_EVERY_MS as rows
 * arrive (rows, rows/s, share of the file), and `<label>: ended, N rows in S s`.
 */
function plainProgress(stream: ProgressStream, label: string, total: number | undefined): Progress {
  const now = clockOf(stream);
  const startedAt = now();
  let lastLineAt = startedAt;
  let lastRows = 0;
  stream.write(`${label}: started\n`);
  return {
    update(done, rows) {
      lastRows = rows;
      const at = now();
      if (at - lastLineAt < PLAIN_PROGRESS_EVERY_MS) return;
      lastLineAt = at;
      const seconds = (at - startedAt) / 1000;
      const share = total ? `, ${Math.floor((100 * done) / total)}% of the file` : '';
      stream.write(`${label}: ${formatCount(rows)} rows, ${formatCount(Math.round(rows / seconds))} rows/s${share}, ${secondsText(at - startedAt)}\n`);
    },
    stop() {
      // Also after a failure (the error follows): "ended", not "done".
      stream.write(`${label}: ended, ${formatCount(lastRows)} rows in ${secondsText(now() - startedAt)}\n`);
    },
  };
}

/**
 * A step without rows (applying a bulk load, recomputing derived data): on a terminal, one line
 * as it starts (as before); elsewhere also `still running` every PLAIN_PROGRESS_EVERY_MS and
 * `done in S s` at the end, so a log shows which step a long command is in.
 */
export function startStep(stream: ProgressStream, label: string): { done(): void } {
  stream.write(`${label}…\n`);
  if (stream.isTTY) return { done: () => undefined };
  const now = clockOf(stream);
  const startedAt = now();
  const ticker = setInterval(() => stream.write(`${label}: still running, ${secondsText(now() - startedAt)}\n`), PLAIN_PROGRESS_EVERY_MS);
  ticker.unref?.();
  return {
    done() {
      clearInterval(ticker);
      stream.write(`${label}: done in ${secondsText(now() - startedAt)}\n`);
    },
  };
}

/** Bars for files read side by side (the bulk import, issue 13): one line per file. */
export interface ProgressBoard {
  start(label: string, total: number): Progress;
  stop(): void;
}

const WITH_TOTAL = '{label} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}';
const WITHOUT_TOTAL = '{label} | {rows} rows | {rate} rows/s | {duration_formatted}';

/**
 * cli-progress draws on `stream` (stderr, so stdout keeps only the summary), on a terminal;
 * elsewhere plainProgress writes lines instead.
 */
const optionsFor = (stream: ProgressStream, format: string) => ({
  format,
  stream: stream as NodeJS.WritableStream,
  hideCursor: true,
  etaBuffer: 50,
  fps: 5,
  barsize: 30,
});

/** The bar's payload: label, rows written and their rate since `startedAt`. */
function payloadOf(label: string, startedAt: number): (rows: number) => Record<string, string> {
  return (rows) => {
    const seconds = (performance.now() - startedAt) / 1000;
    return { label, rows: formatCount(rows), rate: formatCount(seconds > 0 ? Math.round(rows / seconds) : 0) };
  };
}

/**
 * A cli-progress bar on `stream`. With `total` (file bytes) it shows percentage and ETA;
 * without it, rows and rate only.
 */
export function startProgress(stream: ProgressStream, label: string, total: number | undefined): Progress {
  if (!stream.isTTY) return plainProgress(stream, label, total);
  const bar = new cliProgress.SingleBar(optionsFor(stream, total === undefined ? WITHOUT_TOTAL : WITH_TOTAL), cliProgress.Presets.shades_classic);
  const payload = payloadOf(label, performance.now());
  bar.start(total ?? 0, 0, payload(0));
  return {
    update(done, rows) {
      bar.update(total === undefined ? rows : done, payload(rows));
    },
    stop() {
      bar.stop();
    },
  };
}

/**
 * A cli-progress MultiBar on `stream`: a bar per file started, removed when it stops. Only on a
 * terminal: unlike a single bar, a MultiBar writes its bars' templates when it stops elsewhere.
 */
export function startProgressBoard(stream: ProgressStream): ProgressBoard {
  if (!stream.isTTY) return { start: (label, total) => plainProgress(stream, label, total), stop: () => undefined };
  const board = new cliProgress.MultiBar(optionsFor(stream, WITH_TOTAL), cliProgress.Presets.shades_classic);
  return {
    start(label, total) {
      const payload = payloadOf(label, performance.now());
      const bar = board.create(total, 0, payload(0));
      return {
        update(done, rows) {
          bar.update(done, payload(rows));
        },
        stop() {
          bar.stop();
          board.remove(bar);
        },
      };
    },
    stop() {
      board.stop();
    },
  };
}
