/** Keyset cursors: base64url JSON of the last hit's position (score, type, id). */
import { invalidQuery } from '../../http/api-error.js';
import type { SearchPosition } from '../../ports.js';

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

export function decodeCursor(cursor: string): SearchPosition {
  try {
    const value = JSON.parse(fromBase64Url(cursor)) as unknown;
    if (Array.isArray(value) && value.length === 3) {
      const [score, type, id] = value as [unknown, unknown, unknown];
      if (typeof score === 'number' && Number.isFinite(score) && typeof type === 'string' && TYPES.has(type) && Number.isSafeInteger(id)) {
        return { score, type: type as SearchPosition['type'], id: id as number };
      }
    }
  } catch {
    // fall through to the refusal below
  }
  throw invalidQuery([{ path: 'cursor', message: 'must be a next_cursor value from a previous page' }]);
}
