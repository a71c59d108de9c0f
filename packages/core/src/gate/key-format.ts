/**
 * API key format (docs/decisions.md §3): `ck_live_` or `ck_test_`, then 32 base62 characters:
 * 26 random and a 6-character base62 CRC32 of everything before it. Like GitHub's token
 * format, the checksum lets the gate refuse typos and garbage without a store read.
 */
import CRC32 from 'crc-32';
import type { Environment } from '../ports/index.js';
import { base62Fixed, randomBase62 } from './base62.js';

const KEY_PATTERN = /^ck_(live|test)_[0-9A-Za-z]{32}$/;
const RANDOM_LENGTH = 26;
const CHECKSUM_LENGTH = 6;
export const DISPLAY_PREFIX_LENGTH = 12;

function checksumOf(head: string): string {
  return base62Fixed(CRC32.str(head) >>> 0, CHECKSUM_LENGTH);
}

export interface ParsedKey {
  environment: Environment;
  displayPrefix: string;
}

/** Null when the shape or checksum is wrong. */
export function parseApiKey(candidate: string): ParsedKey | null {
  // Stryker disable next-line ConditionalExpression: the length test is a fast path; KEY_PATTERN fixes the length at 40 too.
  if (candidate.length !== 40 || !KEY_PATTERN.test(candidate)) return null;
  const head = candidate.slice(0, 40 - CHECKSUM_LENGTH);
  if (checksumOf(head) !== candidate.slice(40 - CHECKSUM_LENGTH)) return null;
  return {
    environment: candidate.charCodeAt(3) === 108 /* l */ ? 'live' : 'test',
    displayPrefix: candidate.slice(0, DISPLAY_PREFIX_LENGTH),
  };
}

export function generateApiKey(environment: Environment): string {
  const head = `ck_${environment}_${randomBase62(RANDOM_LENGTH)}`;
  return head + checksumOf(head);
}
