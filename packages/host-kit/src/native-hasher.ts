/**
 * The runtime's native SHA-256 for the gate (core's Hasher port). Node ≥ 20.12, Bun and Deno
 * all provide node:crypto; its one-shot `hash()` skips the Hash object that `createHash`
 * builds, and both are several times faster than core's pure-JS default on a 40-byte key.
 */
import * as crypto from 'node:crypto';
import type { Hasher } from '@catalogue/core';

type OneShot = (algorithm: string, data: string, encoding: 'hex') => string;

/** The parts of node:crypto used here (a parameter, so tests can take the fallback path). */
export interface NodeCryptoLike {
  hash?: OneShot;
  createHash: typeof crypto.createHash;
}

export function nativeHasher(source: NodeCryptoLike = crypto as unknown as NodeCryptoLike): Hasher {
  // `hash` is absent before Node 20.12 and on some runtimes' node:crypto; read it dynamically.
  const oneShot = source.hash;
  if (typeof oneShot === 'function') return { sha256Hex: (text) => oneShot('sha256', text, 'hex') };
  return { sha256Hex: (text) => source.createHash('sha256').update(text, 'utf8').digest('hex') };
}
