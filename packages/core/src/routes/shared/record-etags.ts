/**
 * Strong ETags of answers built from a stored record that never changes in place (the memory
 * catalogue's assembled records, PostgreSQL's serialized records until the next import drops
 * them), digested once per record instead of once per request (docs/decisions.md §6, "Caching").
 *
 * The answer is the record plus links that depend only on the service's base URL and the
 * version base, so the digest of the first answer built from a record is the digest of every
 * later one with the same `variant` (base URL and version base): the memo keeps one per record
 * and variant, and digests the body again for any other.
 */
import { etagOf } from '../../http/conditional.js';
import type { Hasher } from '../../ports/index.js';

interface Memo {
  variant: string;
  etag: string;
}

/** Records held as objects (the memory catalogue): forgotten with the record. */
const byObject = new WeakMap<object, Memo>();
/** Records held as text (PostgreSQL): bounded, dropped whole when full (a new import replaces them anyway). */
const byText = new Map<string, Memo>();
const MAX_TEXT_ENTRIES = 4096;

export function recordEtag(record: object | string, variant: string, body: string, hasher: Hasher): string {
  const memo = typeof record === 'string' ? byText.get(record) : byObject.get(record);
  if (memo && memo.variant === variant) return memo.etag;
  const etag = etagOf(body, hasher);
  if (typeof record === 'string') {
    if (byText.size >= MAX_TEXT_ENTRIES) byText.clear();
    byText.set(record, { variant, etag });
  } else {
    byObject.set(record, { variant, etag });
  }
  return etag;
}
