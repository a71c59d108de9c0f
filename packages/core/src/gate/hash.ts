/**
 * Synchronous SHA-256 from @noble/hashes: WebCrypto's digest is async and, on Node, hops
 * to the thread pool, which costs more than the hash itself on the gate's hot path.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

export function sha256Bytes(text: string): Uint8Array {
  return sha256(utf8ToBytes(text));
}

/** Compares two secrets in time independent of where they differ (hash first: equal lengths). */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = sha256Bytes(a);
  const y = sha256Bytes(b);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= (x[i] as number) ^ (y[i] as number);
  return diff === 0;
}
