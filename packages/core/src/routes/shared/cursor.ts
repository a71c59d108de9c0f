/** Keyset cursors: base64url JSON of the last hit's position (score, type, id). */
import { CLUSTER_ID_RANGE, MASTER_ID_RANGE } from '../../catalogue/id-ranges.js';
import { invalidQuery } from '../../errors/api-error.js';
import type { SearchPosition } from '../../ports/index.js';

const TYPES = new Set(['master', 'artist', 'label', 'festival']);

function toBase64Url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  return atob(text.replace(/-/g, '+').replace(/_/g, '/'));
}

export function encodeCursor(position: SearchPosition): string {
  return toBase64Url(JSON.stringify([position.score, position.type, position.id]));
}

/**
 * The position a cursor holds. Only a hit's position makes a cursor, so an id no hit of its type
 * can have (catalogue/id-ranges.ts) is a tampered cursor: the client's fault, 400 like any other
 * forgery (docs/decisions.md §6), and never an id the store cannot bind.
 */
export function decodeCursor(cursor: string): SearchPosition {
  try {
    const value = JSON.parse(fromBase64Url(cursor)) as unknown;
    if (Array.isArray(value) && value.length === 3) {
      const [score, type, id] = value as [unknown, unknown, unknown];
      if (typeof score === 'number' && Number.isFinite(score) && typeof type === 'string' && TYPES.has(type) && isHitId(type, id)) {
        return { score, type: type as SearchPosition['type'], id };
      }
    }
  } catch {
    // fall through to the refusal below
  }
  throw invalidQuery([{ path: 'cursor', message: 'must be a next_cursor value from a previous page' }]);
}

function isHitId(type: string, id: unknown): id is number {
  return Number.isInteger(id) && (id as number) >= 1 && (id as number) <= (type === 'master' ? MASTER_ID_RANGE : CLUSTER_ID_RANGE).held;
}
