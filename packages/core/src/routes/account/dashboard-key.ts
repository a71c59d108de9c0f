/** What the dashboard key routes share: the `<id>` parameter, the key as the dashboard shows it, no caching. */
import { invalidQuery } from '../../errors/api-error.js';
import { UNDECODABLE_PARAM } from '../../http/router.js';
import type { ApiKey } from '../../ports/index.js';

export const NO_STORE = { 'cache-control': 'no-store' };

export /** The `<id>` path parameter; the router hands over null for text no store can hold. */
function keyIdOf(id: string | null | undefined): string {
  if (id === null || id === undefined) throw invalidQuery([{ path: 'id', message: UNDECODABLE_PARAM }]);
  return id;
}

export const keyView = (k: ApiKey) => ({
  id: k.id,
  display_prefix: k.display_prefix,
  environment: k.environment,
  status: k.status,
  created_at: k.created_at.toISOString(),
});
