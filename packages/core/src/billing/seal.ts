/**
 * Sealing with AES-GCM through WebCrypto (global `crypto.subtle` in every runtime): the only
 * way a plaintext key or mail body is stored (reveal rows, outbox). The AES key is derived
 * from SECRET_KEY with a domain label, and each sealed value is bound to its row by the
 * additional data (`context`), so a sealed value copied to another row does not open.
 */
import { sha256Bytes } from '../gate/hash.js';

const keys = new Map<string, Promise<CryptoKey>>();

function aesKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: the map only saves re-deriving the same key; the key is never exported.
  if (!key) {
    key = crypto.subtle.importKey('raw', new Uint8Array(sha256Bytes(`catalogue:seal:v1:${secret}`)), 'AES-GCM', false, ['encrypt', 'decrypt']);
    keys.set(secret, key);
  }
  return key;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** base64url(iv ‖ ciphertext+tag). */
export async function seal(secret: string, plaintext: string, context: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(context) }, await aesKey(secret), encoder.encode(plaintext));
  const out = new Uint8Array(iv.length + cipher.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(cipher), iv.length);
  return toBase64Url(out);
}

/** Throws when the value was not sealed with this secret and context. */
export async function unseal(secret: string, sealed: string, context: string): Promise<string> {
  const bytes = fromBase64Url(sealed);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.subarray(0, 12), additionalData: encoder.encode(context) },
    await aesKey(secret),
    bytes.subarray(12),
  );
  return decoder.decode(plain);
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  // Stryker disable next-line Regex: base64 has `=` only at its end.
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(binary.length);
  // Stryker disable next-line EqualityOperator: a typed array ignores the write one past its end.
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
