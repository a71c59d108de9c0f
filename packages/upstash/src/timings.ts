/** The Redis limiter's windows and lifetimes (re-exported from the package's index). */

/** Same windows as the memory Limiter (@catalogue/core/memory BURST_WINDOW_MS, LEASE_MS). */
export const BURST_WINDOW_MS = 60_000;
export const LEASE_MS = 60_000;
/** How long a counted call id is remembered: a late or replayed count within it is ignored. */
export const CALL_MARKER_TTL_MS = 15 * 60_000;
/** Failed-open calls kept one entry each (about 100 bytes apiece: ~10 MB) before overflow entries. */
export const MAX_BUFFERED_CALLS = 100_000;
