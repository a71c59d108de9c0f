/** What the v1 master routes (one, batch, dossier) and wayfind answer alike. */
import { ApiError } from '../../http/api-error.js';
import type { MasterData } from '../../schemas/records.js';
import { masterLinks } from '../shared/links.js';

export function withMasterLinks(master: MasterData, baseUrl: string, base: string) {
  return { ...master, _links: masterLinks(baseUrl, base, master.master_id) };
}

export function masterNotFound(id: number): ApiError {
  return new ApiError(404, 'master_not_found', { master_id: id, message: `no master with id ${id}` });
}
