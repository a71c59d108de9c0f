/**
 * Response compression negotiated on `Accept-Encoding` (RFC 9110 §12.5.3) with the web-standard
 * CompressionStream, so every host has it (docs/decisions.md §6, "Compression"): gzip
 * everywhere, br where the runtime's CompressionStream has it (checked once, at first use), for
 * bodies of at least COMPRESS_MIN_BYTES.
 */

/** Smaller bodies gain less than the coding's framing and the CPU cost. */
export const COMPRESS_MIN_BYTES = 1024;

export type Coding = 'br' | 'gzip';

let supported: Coding[] | null = null;

/** The codings this runtime's CompressionStream makes, best first. */
export function supportedCodings(): readonly Coding[] {
  if (supported) return supported;
  const found: Coding[] = [];
  if (typeof CompressionStream === 'function') {
    for (const coding of ['br', 'gzip'] as const) {
      try {
        new CompressionStream(coding as CompressionFormat);
        found.push(coding);
      } catch {
        // this runtime's CompressionStream does not make it (Node 20 has no br)
      }
    }
  }
  supported = found;
  return found;
}

/** A header longer than this is not a real client's list: identity, without scanning it. */
const MAX_HEADER_LENGTH = 4096;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The coding to send for this `Accept-Encoding`, or null for identity. A coding with `q=0` is
 * refused, `*` stands for every coding not named, `x-gzip` is gzip; an element with a malformed
 * weight is ignored. Among acceptable codings the highest weight wins, br before gzip on a tie.
 */
export function negotiateCoding(header: string, available: readonly Coding[] = supportedCodings()): Coding | null {
  if (available.length === 0 || header.length > MAX_HEADER_LENGTH) return null;
  const weights = new Map<string, number>();
  for (const element of header.split(',')) {
    const [rawName, ...params] = element.split(';');
    let name = (rawName ?? '').trim().toLowerCase();
    if (name === '') continue;
    if (name === 'x-gzip') name = 'gzip';
    let q = 1;
    let valid = true;
    for (const param of params) {
      const [key, value] = param.split('=').map((part) => part.trim());
      if (key?.toLowerCase() !== 'q') continue;
      if (value === undefined || !QVALUE.test(value)) valid = false;
      else q = Number(value);
    }
    if (valid) weights.set(name, q);
  }
  let best: Coding | null = null;
  let bestQ = 0;
  for (const coding of available) {
    const q = weights.get(coding) ?? weights.get('*') ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  return best;
}

/** The body, UTF-8 encoded and compressed as it streams out. */
export function compressedBody(body: string | Uint8Array<ArrayBuffer>, coding: Coding): ReadableStream<Uint8Array> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return new Blob([bytes]).stream().pipeThrough(new CompressionStream(coding as CompressionFormat) as unknown as TransformStream<Uint8Array, Uint8Array>);
}
