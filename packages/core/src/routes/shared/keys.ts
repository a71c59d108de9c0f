/** Path keys and ids: parsing rules shared by every route that takes one. */
import { CLUSTER_ID_RANGE, type IdRange, MAX_MASTER_ID, SOURCE_ID_RANGE } from '../../catalogue/id-ranges.js';
import type { IssueDetail } from '../../errors/api-error.js';
import { ApiError, invalidQuery } from '../../errors/api-error.js';
import { UNDECODABLE_PARAM } from '../../http/router.js';
import type { AgentKey } from '../../ports/index.js';

/**
 * `id` against its range (catalogue/id-ranges.ts): above `max` it is malformed, 400 naming
 * `path`; above `held` no record can have it, 404 without asking the store.
 */
export function idWithin(id: number, range: IdRange, path: string): number {
  if (id > range.max) throw invalidQuery([{ path, message: `${range.what} is at most ${range.max}` }]);
  if (id > range.held) throw new ApiError('not_found', { message: `no record can have ${range.what} above ${range.held}` });
  return id;
}

/**
 * Master ids are canonical decimal: digits only, no sign, no leading zero, no exponent or
 * fraction, 1 … 2,000,000,000. `0012` is refused too: one id has one spelling, so caches and
 * logs never see two keys for one record.
 */
export function masterIdProblem(raw: unknown): string | null {
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw)) return 'must be an integer';
    if (raw < 1) return 'must be a positive integer';
    if (raw > MAX_MASTER_ID) return `must be at most ${MAX_MASTER_ID}`;
    return null;
  }
  if (typeof raw !== 'string') return 'must be a positive integer';
  if (!/^[0-9]+$/.test(raw)) return 'must be a positive integer written in digits only';
  if (raw.length > 1 && raw.startsWith('0')) return 'must be written without leading zeros';
  if (raw === '0') return 'must be a positive integer';
  if (raw.length > 10 || Number(raw) > MAX_MASTER_ID) return `must be at most ${MAX_MASTER_ID}`;
  return null;
}

export function parseMasterId(raw: string | null): number {
  const problem = raw === null ? UNDECODABLE_PARAM : masterIdProblem(raw);
  if (problem) {
    const details: IssueDetail[] = [{ path: 'id', message: problem }];
    throw new ApiError('invalid_master_id', { details });
  }
  return Number(raw);
}

const SLUG = /^(?=[a-z0-9-]*[a-z])[a-z0-9-]{1,200}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isSlug(value: string): boolean {
  return SLUG.test(value);
}

export function isMbid(value: string): boolean {
  return UUID.test(value);
}

function invalidKey(name: string, message: string): ApiError {
  return new ApiError('invalid_query', { details: [{ path: name, message }] });
}

/** `{key}`: a cluster_id, a slug, or a typed locator `discogs:123` / `mbid:<uuid>`. */
export function parseAgentKey(raw: string | null, name = 'key'): AgentKey {
  const value = raw?.normalize('NFKC');
  if (!value) throw invalidKey(name, UNDECODABLE_PARAM);
  if (/^[1-9][0-9]*$/.test(value)) return { by: 'cluster_id', cluster_id: idWithin(Number(value), CLUSTER_ID_RANGE, name) };
  if (value.startsWith('discogs:')) {
    const id = value.slice(8);
    if (/^[1-9][0-9]*$/.test(id)) return { by: 'discogs', id: idWithin(Number(id), SOURCE_ID_RANGE, name) };
    throw invalidKey(name, 'a discogs locator is discogs:<positive integer>');
  }
  if (value.startsWith('mbid:')) {
    const mbid = value.slice(5).toLowerCase();
    if (isMbid(mbid)) return { by: 'mbid', mbid };
    throw invalidKey(name, 'an mbid locator is mbid:<uuid>');
  }
  if (isSlug(value)) return { by: 'slug', slug: value };
  throw invalidKey(name, 'expected a cluster_id, a slug ([a-z0-9-] with a letter), discogs:<id> or mbid:<uuid>');
}

export function parseSlug(raw: string | null, name = 'slug'): AgentKey {
  const value = raw?.normalize('NFKC');
  if (!value || !isSlug(value)) throw invalidKey(name, 'expected a slug: lowercase letters, digits and hyphens, with at least one letter');
  return { by: 'slug', slug: value };
}
