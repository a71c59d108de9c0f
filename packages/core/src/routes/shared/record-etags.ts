/**
 * Answers built from a stored record that never changes in place (the memory catalogue's
 * assembled records, PostgreSQL's serialized records until the next import drops them): the
 * body and its strong ETag are made once per record instead of once per request
 * (docs/decisions.md §6, "Caching").
 *
 * The answer is the record plus links that depend only on the service's base URL and the
 * version base, so the first answer built from a record is every later one with the same
 * `variant` (base URL and version base): the memo keeps one per record and variant, and builds
 * the body again for any other. Issue 14: the master route is the production path's hot route;
 * splicing links and digesting the body on every request cost about a tenth of its throughput.
 */
import { etagOf } from '../../http/conditional.js';
import type { Hasher } from '../../ports/index.js';

export interface RecordAnswer {
  variant: string;
  body: string;
  etag: string;
}

/**
 * The variant string of a base URL and version base, the same string object for the same pair
 * as long as no other pair came between: the memos compare variants with ===, and a string made
 * per request is another object (and, concatenated, a cons string V8 flattens before comparing
 * its characters), so 500 records of one batch each compared 23 characters instead of one
 * pointer (issue 14). A service answers under one base URL and two version bases.
 */
let lastVariant = '';

export function variantOf(baseUrl: string, base: string): string {
  const variant = baseUrl + base;
  if (variant !== lastVariant) lastVariant = variant;
  return lastVariant;
}

/** Records held as objects (the memory catalogue): forgotten with the record. */
const byObject = new WeakMap<object, RecordAnswer>();
/** Records held as text (PostgreSQL): bounded, dropped whole when full (a new import replaces them anyway). */
const byText = new Map<string, RecordAnswer>();
const MAX_TEXT_ENTRIES = 4096;

/** The answer to serve for `record` under `variant`: `build()` only the first time. */
export function recordAnswer(record: object | string, variant: string, build: () => string, hasher: Hasher): RecordAnswer {
  const memo = typeof record === 'string' ? byText.get(record) : byObject.get(record);
  if (memo && memo.variant === variant) return memo;
  const body = build();
  const answer = { variant, body, etag: etagOf(body, hasher) };
  if (typeof record === 'string') {
    if (byText.size >= MAX_TEXT_ENTRIES) byText.clear();
    byText.set(record, answer);
  } else {
    byObject.set(record, answer);
  }
  return answer;
}

/**
 * Bodies only (no ETag), for answers that hold many records (POST /api/v1/masters/batch):
 * each record's text with its links spliced in, made once per record text and variant. Bounded
 * like byText but larger, since one batch alone names up to 500 records; dropped whole when full.
 */
const bodyByText = new Map<string, { variant: string; body: string }>();
const MAX_BODY_ENTRIES = 16_384;

/**
 * The batch route's bodies, UTF-8 encoded once per record text and variant: a batch answer is
 * then one copy of its records' bytes. Assembled as text it was joined, measured for its
 * Content-Length and encoded again on every request (issue 14: ~40 % of the host's CPU for a
 * 500-record batch). Bounded and dropped like bodyByText.
 */
const bytesByText = new Map<string, { variant: string; bytes: Uint8Array<ArrayBuffer> }>();
const encoder = new TextEncoder();

export function recordBytes(record: string, variant: string, build: () => string): Uint8Array<ArrayBuffer> {
  const memo = bytesByText.get(record);
  if (memo && memo.variant === variant) return memo.bytes;
  const bytes = encoder.encode(build());
  if (bytesByText.size >= MAX_BODY_ENTRIES) bytesByText.clear();
  bytesByText.set(record, { variant, bytes });
  return bytes;
}

export function recordBody(record: string, variant: string, build: () => string): string {
  const memo = bodyByText.get(record);
  if (memo && memo.variant === variant) return memo.body;
  const body = build();
  if (bodyByText.size >= MAX_BODY_ENTRIES) bodyByText.clear();
  bodyByText.set(record, { variant, body });
  return body;
}
