/**
 * A readiness probe: one dependency the service needs to answer (the database with its
 * migrations current, the limit store), checked by `GET /readyz` (docs/decisions.md §8,
 * "Health and readiness"). Adapters make them; a deployment without a dependency has no probe.
 */
import type { CallOptions } from './runtime.js';

export interface Probe {
  /** What it checks, as `/readyz` names it: `database`, `limits`. */
  name: string;
  /**
   * Resolves when the dependency can serve; rejects with an Error whose message says why, in
   * words safe to show anyone (no URL, no credential).
   */
  check(options: CallOptions): Promise<void>;
}
