/**
 * Synchronous SHA-256 from @noble/hashes: WebCrypto's digest is async and, on Node, hops
 * to the thread pool, which costs more than the hash itself on the gate's hot path.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(isAscii(text) ? asciiBytes(text) : utf8ToBytes(text)));
}

// API keys are ASCII (the gate checks their shape first): copying char codes is cheaper than a
// TextEncoder call for 40 bytes.
// Stryker disable all: isAscii and asciiBytes are a shortcut; utf8ToBytes gives the same bytes for ASCII (base62.test.ts hashes both kinds), and an index past the end reads NaN or writes nothing in a typed array.
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
// Stryker restore all

export function sha256Bytes(text: string): Uint8Array {
  return sha256(utf8ToBytes(text));
}

/** Compares two secrets in time independent of where they differ (hash first: equal lengths). */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = sha256Bytes(a);
  const y = sha256Bytes(b);
  let diff = 0;
  // Stryker disable next-line EqualityOperator: both digests are 32 bytes; x[32] ^ y[32] is undefined ^ undefined = 0.
  for (let i = 0; i < x.length; i++) diff |= (x[i] as number) ^ (y[i] as number);
  return diff === 0;
}
