/** Reads a small body sent either as an HTML form or as JSON, as a plain string map. */
import * as v from 'valibot';
import { ApiError, invalidBody } from '../errors/api-error.js';
import { readBodyCapped } from '../http/body.js';
import { detailsOf } from '../validation/issues.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

export async function readFormOrJson(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const bytes = await readBodyCapped(request, maxBytes);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw invalidBody([{ path: '', message: 'body is not valid UTF-8' }]);
  }
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text));
  if (type === 'application/json') {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // falls through to the same refusal as a non-object
    }
    throw invalidBody([{ path: '', message: 'body must be a JSON object' }]);
  }
  throw new ApiError('unsupported_media_type', { message: 'send application/json or application/x-www-form-urlencoded' });
}

/** readFormOrJson, then the schema: its output, or `400 invalid_body` with one detail per issue. */
export async function readValidBody<S extends v.GenericSchema>(request: Request, schema: S, maxBytes: number): Promise<v.InferOutput<S>> {
  const parsed = v.safeParse(schema, await readFormOrJson(request, maxBytes));
  if (!parsed.success) throw new ApiError('invalid_body', { details: detailsOf(parsed.issues) });
  return parsed.output;
}
