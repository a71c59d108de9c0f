/**
 * Strong ETags and `If-None-Match` for the catalogue reads (docs/decisions.md §6, "Caching").
 *
 * The tag is a digest of the identity body: two answers share it exactly when their bytes are
 * the same (RFC 9110 §8.8.1, a strong validator). A compressed representation is another one, so
 * its tag carries the coding as a suffix (`"…-gzip"`), and a tag the client holds for either
 * representation of the same bytes matches (If-None-Match uses the weak comparison, §13.1.2).
 */
import type { Hasher } from '../ports/index.js';

/** `"<32 hex digits>"`: the first 128 bits of the body's SHA-256, through the injected Hasher. */
export function etagOf(body: string, hasher: Hasher): string {
  return `"${hasher.sha256Hex(body).slice(0, 32)}"`;
}

/** The tag of the representation actually sent: the coding appended inside the quotes. */
export function codedEtag(etag: string, coding: string | null): string {
  return coding ? `${etag.slice(0, -1)}-${coding}"` : etag;
}

/** A header longer than this is not a list of our tags: it is ignored, never scanned. */
const MAX_HEADER_LENGTH = 8192;

/**
 * Whether `If-None-Match` names the current representation: `*`, or a listed entity-tag (W/
 * or not, with or without a coding suffix) whose opaque part is `etag`'s (the identity tag).
 * A malformed header, or one past MAX_HEADER_LENGTH, matches nothing: it is ignored as a whole
 * and the answer is a plain 200.
 */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  if (header.length > MAX_HEADER_LENGTH) return false;
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  const tags = entityTags(trimmed);
  if (!tags) return false;
  const opaque = etag.slice(1, -1);
  return tags.some((tag) => tag === opaque || tag.startsWith(`${opaque}-`));
}

/** The opaque parts of a comma-separated list of entity-tags (RFC 9110 §8.8.3), or null when malformed. */
function entityTags(list: string): string[] | null {
  const tags: string[] = [];
  let i = 0;
  const n = list.length;
  const skip = (chars: string) => {
    while (i < n && chars.includes(list[i] as string)) i++;
  };
  while (i < n) {
    skip(' \t,');
    if (i >= n) break;
    if (list.startsWith('W/', i)) i += 2;
    if (list[i] !== '"') return null;
    const end = list.indexOf('"', i + 1);
    if (end < 0) return null;
    tags.push(list.slice(i + 1, end));
    i = end + 1;
    skip(' \t');
    if (i < n && list[i] !== ',') return null;
  }
  return tags;
}
