/**
 * Per-search beacon tokens: `bt1.<search_id>.<key_id>.<expires_s>.<mac>`, where mac is
 * HMAC-SHA256 over the other fields under a key derived from SECRET_KEY, base64url.
 *
 * The token is bound to one search and one API key and is valid 30 minutes. It carries the key
 * id in clear (an id, not a secret) so a beacon, which has no X-API-Key, can be attributed.
 * Without SECRET_KEY no signer exists: searches answer `beacon_token: null` and every beacon is
 * refused, since nothing could be verified and nothing insecure is derived in its place.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

export const BEACON_TOKEN_TTL_MS = 30 * 60_000;
const VERSION = 'bt1';
/** Domain separation: the same SECRET_KEY also seals keys; beacons get their own subkey. */
const PURPOSE = 'catalogue/beacon-token/v1';
const SEARCH_ID = /^srch_[0-9A-Z]{26}$/;
const KEY_ID = /^key_[0-9A-Za-z]{1,40}$/;

export interface BeaconClaims {
  searchId: string;
  keyId: string;
  /** Epoch ms after which the token is refused. */
  expiresAt: number;
}

export interface BeaconSigner {
  issue(searchId: string, keyId: string, now: number): string;
  /** The claims of a genuine, unexpired token; null for anything else. */
  verify(token: string, now: number): BeaconClaims | null;
}

/** SECRET_KEY is hex or base64 (standard or url alphabet); at least 32 bytes once decoded. */
export function decodeSecret(secret: string): Uint8Array {
  const text = secret.trim();
  let bytes: Uint8Array;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(text)) {
    bytes = Uint8Array.from(text.match(/../g) as string[], (h) => Number.parseInt(h, 16));
  } else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const std = text.replace(/-/g, '+').replace(/_/g, '/');
    // Stryker disable next-line ArithmeticOperator,StringLiteral: atob (forgiving-base64) decodes unpadded input alike; the padding is for clarity.
    bytes = Uint8Array.from(atob(std.padEnd(Math.ceil(std.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  } else {
    throw new Error('SECRET_KEY must be hex or base64');
  }
  if (bytes.length < 32) throw new Error(`SECRET_KEY must hold at least 32 bytes; it holds ${bytes.length}`);
  return bytes;
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  // Stryker disable next-line Regex: a 32-byte MAC has one `=`, at its end.
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: both are 32 bytes (fromBase64url takes 43 characters only).
  if (a.length !== b.length) return false;
  let diff = 0;
  // Stryker disable next-line EqualityOperator: a[32] ^ b[32] is undefined ^ undefined = 0.
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  const std = `${text.replace(/-/g, '+').replace(/_/g, '/')}=`;
  return Uint8Array.from(atob(std), (c) => c.charCodeAt(0));
}

export function createBeaconSigner(secret: string): BeaconSigner {
  const key = hmac(sha256, decodeSecret(secret), utf8ToBytes(PURPOSE));
  const mac = (payload: string) => hmac(sha256, key, utf8ToBytes(payload));
  return {
    issue(searchId, keyId, now) {
      const payload = `${VERSION}.${searchId}.${keyId}.${Math.floor((now + BEACON_TOKEN_TTL_MS) / 1000)}`;
      return `${payload}.${base64url(mac(payload))}`;
    },
    verify(token, now) {
      const parts = token.split('.');
      if (parts.length !== 5) return null;
      const [version, searchId, keyId, expires, signature] = parts as [string, string, string, string, string];
      // Stryker disable next-line ConditionalExpression,Regex: the MAC covers the expiry, and this signer issues only 1 to 12 digits; the shape test refuses garbage before the MAC is computed.
      if (version !== VERSION || !SEARCH_ID.test(searchId) || !KEY_ID.test(keyId) || !/^[0-9]{1,12}$/.test(expires)) return null;
      const given = fromBase64url(signature);
      // The MAC is checked before the expiry so a forged token learns nothing from timing.
      if (!given || !equalBytes(given, mac(parts.slice(0, 4).join('.')))) return null;
      const expiresAt = Number(expires) * 1000;
      if (now >= expiresAt) return null;
      return { searchId, keyId, expiresAt };
    },
  };
}

const signers = new Map<string, BeaconSigner>();

/** One signer per secret for the process (the subkey derivation is done once). */
export function beaconSignerFor(secret: string | null): BeaconSigner | null {
  if (!secret) return null;
  let signer = signers.get(secret);
  if (!signer) {
    signer = createBeaconSigner(secret);
    signers.set(secret, signer);
  }
  return signer;
}
