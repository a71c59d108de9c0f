/**
 * Dashboard session and login-link tokens: 32 random bytes, handed to the browser once and
 * stored only as SHA-256, so a copy of the database cannot sign anyone in.
 */
import { sha256Hex } from '../gate/hash.js';
import { toBase64Url } from './seal.js';

export const LOGIN_TOKEN_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const REVEAL_TTL_MS = 24 * 60 * 60 * 1000;

export function newToken(): { token: string; hash: string } {
  const token = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  return { token, hash: tokenHash(token) };
}

export function tokenHash(token: string): string {
  return sha256Hex(`catalogue:token:${token}`);
}
