/**
 * The sliding window of @upstash/ratelimit, computed the same way in memory so both limiters
 * answer alike: fixed windows aligned to the epoch; the estimate is the current window's count
 * plus the previous window's count weighted by how much of it still overlaps the last minute.
 */
export interface WindowCounts {
  /** Index of the window (floor(now / windowMs)) the counts below belong to. */
  window: number;
  current: number;
  previous: number;
}

export interface WindowState {
  estimate: number;
  /** Epoch ms when the current window ends. */
  resetAt: number;
}

/** Moves the counts forward to the window containing `now`. */
export function rollWindow(counts: WindowCounts, now: number, windowMs: number): WindowCounts {
  const window = Math.floor(now / windowMs);
  if (window === counts.window) return counts;
  const previous = window === counts.window + 1 ? counts.current : 0;
  return { window, current: 0, previous };
}

export function windowState(counts: WindowCounts, now: number, windowMs: number): WindowState {
  const elapsed = (now % windowMs) / windowMs;
  return {
    estimate: Math.floor((1 - elapsed) * counts.previous) + counts.current,
    resetAt: (counts.window + 1) * windowMs,
  };
}
