/** Default Clock, Logger, Alarm, Hasher and Metrics: wall clock, JSON lines on the console, alarms as error records, pure-JS SHA-256, no metrics. */
import { sha256Hex } from './gate/hash.js';
import type { Alarm, Clock, Hasher, Logger, LogLevel, LogRecord, Metrics } from './ports/index.js';

export const systemClock: Clock = { now: () => Date.now() };

export const pureHasher: Hasher = { sha256Hex };

/** Counts nothing; `GET /metrics` answers 404 (no render). Hosts inject host-kit's Prometheus metrics. */
export const noMetrics: Metrics = { request() {}, limiterFailOpen() {} };

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * One JSON line per record: `{"time":"<ISO>",` then `fields` (the same on every line, e.g. a
 * worker's pid), then the record as it is. What Deno and Lambda (one line per record on stdout,
 * as its log format expects) log through, and the line format of the Node and Bun hosts'
 * buffered logger (host-kit's bufferedLogger writes these lines). Nothing is copied per line: the
 * record is serialised once, the prefix (time and fields) is text, made again only when the
 * millisecond changes.
 */
export function consoleLogger(
  minLevel: LogLevel = 'info',
  write: (line: string) => void = (l) => console.log(l),
  fields: Record<string, string | number> = {},
): Logger {
  const floor = LEVELS[minLevel];
  const tagged = JSON.stringify(fields).slice(1, -1);
  const afterTime = tagged ? `",${tagged},` : '",';
  let stampedAt = Number.NaN;
  let prefix = '';
  return {
    log(record: LogRecord) {
      if (LEVELS[record.level] < floor) return;
      const now = Date.now();
      if (now !== stampedAt) {
        stampedAt = now;
        prefix = `{"time":"${new Date(now).toISOString()}${afterTime}`;
      }
      write(prefix + JSON.stringify(record).slice(1));
    },
  };
}

export function loggingAlarm(logger: Logger): Alarm {
  return {
    raise(kind, detail) {
      logger.log({ level: 'error', kind: 'alarm', alarm: kind, ...detail });
    },
  };
}

/** Raises each alarm kind at most once per `intervalMs` (docs/decisions.md §8: once a minute). */
export function throttledAlarm(alarm: Alarm, clock: Clock, intervalMs = 60_000): Alarm {
  const last = new Map<string, number>();
  return {
    raise(kind, detail) {
      const now = clock.now();
      const previous = last.get(kind);
      if (previous !== undefined && now - previous < intervalMs) return;
      last.set(kind, now);
      alarm.raise(kind, detail);
    },
  };
}
