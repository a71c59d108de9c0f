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
}

/** Bars for files read side by side (the bulk import, issue 13): one line per file. */
export interface ProgressBoard {
  start(label: string, total: number): Progress;
  stop(): void;
}

const WITH_TOTAL = '{label} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}';
const WITHOUT_TOTAL = '{label} | {rows} rows | {rate} rows/s | {duration_formatted}';

/**
 * cli-progress draws on `stream` (stderr, so stdout keeps only the summary) and draws nothing
 * when the stream is not a terminal, so logs and tests stay clean.
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
  if (!stream.isTTY) return { start: () => ({ update: () => undefined, stop: () => undefined }), stop: () => undefined };
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
