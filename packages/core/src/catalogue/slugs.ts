/**
 * Slugs of agents. Both catalogue implementations call `assignSlugs` over all rows of a kind,
 * so a slug never depends on import order or on which implementation serves it.
 */
import type { AgentKind } from '../schemas/records.js';
import { transliterate } from './transliterate.js';

/** Path keys accept at most 200 characters; the cap leaves room for a `-<source id>` suffix. */
export const MAX_SLUG_BASE_LENGTH = 120;

/**
 * NFKC, transliterated to ASCII (transliterate.ts: Cyrillic by ICAO Doc 9303, other scripts by
 * any-ascii), lowercase, runs of anything but [a-z0-9] → '-', trim '-'.
 */
export function slugify(name: string): string {
  const slug = transliterate(name.normalize('NFKC'))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= MAX_SLUG_BASE_LENGTH) return slug;
  return slug.slice(0, MAX_SLUG_BASE_LENGTH).replace(/-+$/, '');
}

/**
 * The slug base of one row: `slugify(name)`, or `${kind}-${base || sourceId}` when the base
 * has no letter (slugs must contain one, so they never look like a cluster id).
 */
export function slugBase(kind: AgentKind, sourceId: number, name: string): string {
  const base = slugify(name);
  return /[a-z]/.test(base) ? base : `${kind}-${base || sourceId}`;
}

/**
 * Slugs of every row of one kind. On a collision within the kind the row with the lowest
 * source id keeps the base and the others get `${base}-${sourceId}`.
 */
export function assignSlugs(kind: AgentKind, rows: Iterable<{ sourceId: number; name: string }>): Map<number, string> {
  const byBase = new Map<string, number[]>();
  for (const row of rows) {
    const base = slugBase(kind, row.sourceId, row.name);
    const ids = byBase.get(base);
    if (ids) ids.push(row.sourceId);
    else byBase.set(base, [row.sourceId]);
  }
  const slugs = new Map<number, string>();
  for (const [base, ids] of byBase) {
    const owner = Math.min(...ids);
    for (const id of ids) slugs.set(id, id === owner ? base : `${base}-${id}`);
  }
  return slugs;
}
