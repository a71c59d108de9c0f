/**
 * WEB_CONCURRENCY (docs/decisions.md §1, §9): how many worker processes the Node host serves
 * from, through node:cluster. 1 (the default) is the single process of before, with no
 * primary/worker split; `auto` is the machine's available parallelism.
 *
 * Several workers need a database every worker reaches: the embedded PGlite default is a
 * database inside one process whose data dir one process holds (docs/decisions.md §1), and the
 * memory demo's accounts live in each process, so a key issued through one worker would be
 * unknown to the others. Both are refused at start rather than served wrongly.
 */
import { availableParallelism } from 'node:os';

/** Far above any core count a host has; a typo (`80` for `8`) is refused rather than forked. */
export const MAX_WEB_CONCURRENCY = 64;

/** WEB_CONCURRENCY's value: 1 when unset, `auto` → `parallelism()`, else an integer 1–64. */
export function webConcurrencyOf(value: string | undefined, parallelism: () => number = availableParallelism): number {
  const text = value?.trim() ?? '';
  if (text === '') return 1;
  if (text === 'auto') return Math.max(1, Math.min(MAX_WEB_CONCURRENCY, parallelism()));
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isInteger(n) || n < 1 || n > MAX_WEB_CONCURRENCY)
    throw new Error(`WEB_CONCURRENCY must be auto or a whole number of worker processes from 1 to ${MAX_WEB_CONCURRENCY}, got "${value}"`);
  return n;
}

/**
 * Why `workers` processes cannot serve this storage, or null when they can: only PostgreSQL
 * (DATABASE_URL, without CATALOGUE_STORAGE=memory) is shared by every worker.
 */
export function workersRefusal(workers: number, env: { databaseUrl: string | null; storage: 'memory' | 'postgres' }): string | null {
  if (workers <= 1) return null;
  if (env.storage === 'memory' && env.databaseUrl !== null)
    return `WEB_CONCURRENCY=${workers} cannot serve CATALOGUE_STORAGE=memory: each worker would hold its own accounts, so a key issued through one would be unknown to the others; unset CATALOGUE_STORAGE to serve DATABASE_URL, or set WEB_CONCURRENCY=1`;
  if (env.databaseUrl === null)
    return `WEB_CONCURRENCY=${workers} needs DATABASE_URL: the embedded default (PGlite) and the memory demo are databases inside one process, which one worker at a time can hold; set DATABASE_URL, or WEB_CONCURRENCY=1`;
  return null;
}
