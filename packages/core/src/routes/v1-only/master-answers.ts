/** What the v1 master routes (one, batch, dossier) and wayfind answer alike. */
import { ApiError } from '../../http/api-error.js';
import type { MasterData } from '../../schemas/records.js';
import { masterLinks, withCreditLinks } from '../shared/links.js';

export function withMasterLinks(master: MasterData, baseUrl: string, base: string) {
  return { ...withCreditLinks(master, baseUrl, base), _links: masterLinks(baseUrl, base, master.master_id) };
}

export function masterNotFound(id: number): ApiError {
  return new ApiError(404, 'master_not_found', { master_id: id, message: `no master with id ${id}` });
}

/**
 * `{…}` + links → `{…,"_links":links}` (no comma after an empty object): the same bytes as
 * serializing withMasterLinks(record), from a record already serialized, without parsing it.
 */
export function withLinksSpliced(record: string, links: string): string {
  const body = record.slice(0, record.lastIndexOf('}')).trimEnd();
  return `${body}${body.endsWith('{') ? '' : ','}"_links":${links}}`;
}
