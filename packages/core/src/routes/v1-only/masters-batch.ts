/** POST /api/v1/masters/batch: several masters in one call (one rate-limit unit). Demoted like the master route. */
import * as v from 'valibot';
import { ApiError } from '../../errors/api-error.js';
import { readJsonCapped } from '../../http/body.js';
import { JSON_TYPE, Reply } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { MasterJson } from '../../ports/index.js';
import { named } from '../../schemas/named.js';
import { MasterSchema } from '../../schemas/records.js';
import { masterIdProblem } from '../shared/keys.js';
import { variantOf } from '../shared/record-etags.js';
import { MANIFEST_SUCCESSOR, MASTER_WHERE } from './deprecations.js';
import { masterAnswerBytes } from './master-answers.js';

export const BATCH_MAX_BYTES = 32 * 1024;

export const BatchRequestSchema = named(
  'MasterBatchRequest',
  v.object({
    ids: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_000_000_000))), v.minLength(1), v.maxLength(500)),
  }),
);

export const BatchResponseSchema = named(
  'MasterBatch',
  v.object({
    masters: v.array(MasterSchema),
    missing: v.array(v.number()),
  }),
);

function batchError(message: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError('invalid_batch_size', { details: [{ path: 'ids', message }], ...extra });
}

export const mastersBatchRoute = route({
  method: 'POST',
  path: '/api/v1/masters/batch',
  access: 'key',
  summary: 'Several masters in one call (one rate-limit unit)',
  description:
    'Body {"ids": [...]}: 1 to 100 ids (500 on the contract tier), body at most 32 KB. Answers the masters in request order, each once, and the ids not found.',
  tags: ['masters'],
  body: { schema: BatchRequestSchema, description: 'The master ids.', maxBytes: BATCH_MAX_BYTES },
  responses: { 200: { description: 'Masters in request order; ids not found under missing.', schema: BatchResponseSchema } },
  errors: ['invalid_batch_size', 'invalid_master_id', 'payload_too_large'],
  deprecation: { successor: () => MANIFEST_SUCCESSOR, where: MASTER_WHERE },
  async handler({ request, principal, ports, lifetime, config, base }) {
    const body = await readJsonCapped(request, BATCH_MAX_BYTES, (reason) => batchError(reason));
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !('ids' in body)) {
      throw batchError('body must be a JSON object {"ids": [...]}');
    }
    const extra = Object.keys(body).filter((k) => k !== 'ids');
    if (extra.length > 0) throw new ApiError('invalid_body', { details: extra.map((k) => ({ path: k, message: 'unknown field' })) });
    const ids = (body as { ids: unknown }).ids;
    const max = principal?.policy.batchMax ?? 100;
    if (!Array.isArray(ids)) throw batchError('ids must be an array');
    if (ids.length === 0) throw batchError('ids must not be empty');
    if (ids.length > max) throw batchError(`ids holds ${ids.length} entries; this tier allows at most ${max}`, { max_ids: max });
    // A loop rather than flatMap: no array per id for the 500 ids that are fine.
    const details: Array<{ path: string; message: string }> = [];
    for (let i = 0; i < ids.length; i++) {
      const problem = masterIdProblem(ids[i]);
      if (problem) details.push({ path: `ids.${i}`, message: problem });
    }
    if (details.length > 0) throw new ApiError('invalid_master_id', { details });
    const unique = [...new Set(ids as number[])];
    // A catalogue that holds records serialized hands them over as they are; any other's are
    // serialized here, one record at a time, which is the same work as one JSON.stringify.
    const found = ports.catalogue.mastersJson
      ? await ports.catalogue.mastersJson(unique, lifetime)
      : (await ports.catalogue.masters(unique, lifetime)).map((m) => ({ master_id: m.master_id, json: JSON.stringify(m) }));
    return batchFromJson(unique, found, config.baseUrl, base);
  },
});

const encoder = new TextEncoder();
const OPEN = encoder.encode('{"masters":[');
const COMMA = 0x2c;

/**
 * The batch answer from serialized records: each record's text gets its `_links` spliced in
 * before its closing brace, which gives the same bytes as serializing withMasterLinks(record)
 * (the record's keys, then `_links`) without parsing ~1 MB of JSON only to serialize it again.
 * Each record's answer is UTF-8 bytes made once per record and variant (record-etags.ts), and
 * the body is those bytes copied once into one buffer: no text to join, measure and encode.
 */
function batchFromJson(unique: number[], found: MasterJson[], baseUrl: string, base: string): Reply {
  const variant = variantOf(baseUrl, base);
  const masters: Uint8Array[] = [];
  const missing: number[] = [];
  let size = 0;
  // Records are matched to the ids by walking both lists once while `found` follows the request
  // order (the PostgreSQL catalogue's does); a map by id is built only for a record out of that
  // order (the port allows any). For 500 ids the walk saves a map of 500 entries and its 1,000
  // operations per request (issue 14).
  let next = 0;
  let byId: Map<number, string> | undefined;
  for (const id of unique) {
    let text: string | undefined;
    if (found[next]?.master_id === id) {
      text = (found[next] as MasterJson).json;
      next++;
    } else {
      byId ??= new Map(found.map((m) => [m.master_id, m.json]));
      text = byId.get(id);
    }
    if (text === undefined) {
      missing.push(id);
      continue;
    }
    const bytes = masterAnswerBytes(text, id, baseUrl, base, variant);
    masters.push(bytes);
    size += bytes.byteLength;
  }
  const close = encoder.encode(`],"missing":${JSON.stringify(missing)}}`);
  const body = new Uint8Array(OPEN.byteLength + size + Math.max(masters.length - 1, 0) + close.byteLength);
  body.set(OPEN, 0);
  let at = OPEN.byteLength;
  for (let i = 0; i < masters.length; i++) {
    if (i > 0) body[at++] = COMMA;
    const bytes = masters[i] as Uint8Array;
    body.set(bytes, at);
    at += bytes.byteLength;
  }
  body.set(close, at);
  return new Reply(200, body, { 'content-type': JSON_TYPE });
}
