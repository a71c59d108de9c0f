import { ApiError } from '../errors/api-error.js';

/**
 * Reads a request body, refusing it with 413 as soon as more than `maxBytes` arrived. The
 * bytes are counted as they stream: Content-Length is only a hint (it may lie or be absent).
 */
export async function readBodyCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError('payload_too_large', { max_bytes: maxBytes });
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether the request says its body is JSON: `application/json` or a `+json` type (RFC 6839),
 * parameters (charset) allowed, case ignored.
 */
export function isJsonMediaType(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Parses a capped body as JSON; malformed UTF-8 or JSON yields `onMalformed()`. A body sent
 * without a JSON media type (none, `text/plain`, a form) is `415 unsupported_media_type` before
 * a byte is read (docs/decisions.md §6): a browser sends those cross-site without a preflight.
 */
export async function readJsonCapped(request: Request, maxBytes: number, onMalformed: (reason: string) => ApiError): Promise<unknown> {
  if (!isJsonMediaType(request.headers.get('content-type'))) {
    throw new ApiError('unsupported_media_type', {
      details: [{ path: 'Content-Type', message: 'must be application/json' }],
    });
  }
  const bytes = await readBodyCapped(request, maxBytes);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw onMalformed('body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw onMalformed('body is not valid JSON');
  }
}
