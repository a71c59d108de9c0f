/** What the v1 master routes (one, batch, dossier) and wayfind answer alike. */
import { ApiError } from '../../errors/api-error.js';
import type { MasterData } from '../../schemas/records.js';
import { creditLinksInText, masterLinks, withCreditLinks } from '../shared/links.js';
import { recordBody, recordBytes } from '../shared/record-etags.js';

export function withMasterLinks(master: MasterData, baseUrl: string, base: string) {
  return { ...withCreditLinks(master, baseUrl, base), _links: masterLinks(baseUrl, base, master.master_id) };
}

export function masterNotFound(id: number): ApiError {
  return new ApiError('master_not_found', { master_id: id, message: `no master with id ${id}` });
}

/**
 * `{…}` + links → `{…,"_links":links}` (no comma after an empty object): the same bytes as
 * serializing withMasterLinks(record), from a record already serialized, without parsing it.
 */
export function withLinksSpliced(record: string, links: string): string {
  const body = record.slice(0, record.lastIndexOf('}')).trimEnd();
  return `${body}${body.endsWith('{') ? '' : ','}"_links":${links}}`;
}

/**
 * A stored master record's text as the v1 routes answer it (credit links and the master's own
 * links spliced in), made once per record text and variant (record-etags.ts, issue 14): the
 * single and the batch route share the one body.
 */
export function masterAnswerText(text: string, id: number, baseUrl: string, base: string): string {
  return recordBody(text, baseUrl + base, () => spliced(text, id, baseUrl, base));
}

/**
 * The same answer as UTF-8 bytes, encoded once per record text and variant (the batch route,
 * which passes `variant`, baseUrl + base, made once per request rather than once per record).
 */
export function masterAnswerBytes(text: string, id: number, baseUrl: string, base: string, variant = baseUrl + base): Uint8Array<ArrayBuffer> {
  return recordBytes(text, variant, () => spliced(text, id, baseUrl, base));
}

function spliced(text: string, id: number, baseUrl: string, base: string): string {
  return withLinksSpliced(creditLinksInText(text, baseUrl, base), JSON.stringify(masterLinks(baseUrl, base, id)));
}
