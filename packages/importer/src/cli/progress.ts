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

/**
 * A cli-progress bar on `stream` (stderr, so stdout keeps only the summary). cli-progress draws
 * nothing when the stream is not a terminal, so logs and tests stay clean.
 * With `total` (file bytes) it shows percentage and ETA; without it, rows and rate only.
 */
export function startProgress(stream: ProgressStream, label: string, total: number | undefined): Progress {
  const startedAt = performance.now();
  const format =
    total === undefined
      ? '{label} | {rows} rows | {rate} rows/s | {duration_formatted}'
      : '{label} [{bar}] {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}';
  const bar = new cliProgress.SingleBar(
    {
      format,
      stream: stream as NodeJS.WritableStream,
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
      barsize: 30,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = (rows: number) => {
    const seconds = (performance.now() - startedAt) / 1000;
    return { label, rows: formatCount(rows), rate: formatCount(seconds > 0 ? Math.round(rows / seconds) : 0) };
  };
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
