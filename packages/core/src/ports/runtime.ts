/** What every part of the service uses from its surroundings: time, logs, alarms, hashing, and the request lifetime a port call receives. */

/**
 * The request lifetime as a port sees it: passed to every port call that may take time (as
 * `lifetime`), so a deadline or a disconnect can cancel it.
 */
export interface CallOptions {
  signal?: AbortSignal;
  /**
   * True once the deadline passed or the client went away. The service's lifetime answers it
   * without allocating (its AbortSignal is made only when `signal` is read: two
   * AbortControllers and a listener on Node, issue 14), so a port that only checks whether to
   * go on, and never listens, reads this instead (`abortProbeOf`, http/deadline.ts).
   */
  readonly aborted?: boolean;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A structured log record; `kind` names the event, e.g. `ratelimit.fail_open`. */
export interface LogRecord {
  level: LogLevel;
  kind: string;
  [field: string]: unknown;
}

export interface Logger {
  log(record: LogRecord): void;
}

export interface Alarm {
  raise(kind: string, detail: Record<string, unknown>): void;
}

/**
 * SHA-256 of the presented API key, on the gate's hot path. Core's default is pure JS
 * (@noble/hashes); hosts inject the runtime's native one (host-kit `nativeHasher`), several
 * times faster. Any correct implementation gives the same hashes, so the two can be mixed.
 */
export interface Hasher {
  /** SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex digits. */
  sha256Hex(text: string): string;
}
