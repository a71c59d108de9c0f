/**
 * Issue 11 §3: values no store can hold are refused in core before any query, with the same
 * answer on every store — 400 (`invalid_query` / `invalid_body`) naming the parameter when the
 * value is malformed or out of its documented range, 404 when it is well-formed but names
 * nothing the catalogue can hold. On PostgreSQL these used to reach a query and answer 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/service.js';
import { STORES, type StoreService } from '../support/stores.js';

/** [what, path, detail path]: each answers 400 invalid_query naming that parameter. */
const REFUSED: Array<[string, string, string]> = [
  ['NUL in a facet filter', '/api/v1/search?genre=%00', 'genre'],
  ['NUL in q', '/api/v1/search?q=moments%00', 'q'],
  ['NUL in a facets filter', '/api/v1/facets?facets=genre&country=UK%00', 'country'],
  ['NUL in a label filter', '/api/v2/search?label=%00', 'label'],
  ['NUL in the breakouts genre', '/api/v1/breakouts?genre=%00', 'genre'],
  ['NUL in the ones-to-watch genre', '/api/v1/tastemakers/ones-to-watch?genre=Electronic%00', 'genre'],
  ['NUL in a bandcamp tag', '/api/v1/bandcamp?tag=%00', 'tag'],
  ['NUL in a bandcamp release link', '/api/v1/bandcamp/release?url=https://vince.bandcamp.com/album/a%00', 'url'],
  ['NUL in resolve q', '/api/v1/resolve?q=Vince%00', 'q'],
  ['NUL in a resolve link', '/api/v1/resolve?url=https://vince.bandcamp.com/%00', 'url'],
  ['NUL in v2 fields', '/api/v2/artist/vince-watson?fields=identity%00', 'fields'],
  ['NUL in the wayfind path', '/api/v1/wayfind?path=/api/v1/masters/113%00', 'path'],
  ['NUL in a dashboard session token', '/api/dashboard/session?token=%00', 'token'],
  ['NUL in a {key}', '/api/v1/artist/vince%00watson', 'key'],
  ['NUL in a slug', '/api/v1/dossier/festival/%00', 'slug'],
];

describe.each(STORES)('values no store can hold, on %s', (_store, open) => {
  let s: StoreService;
  beforeAll(async () => {
    s = await open();
  });
  afterAll(() => s?.close());
  const get = (path: string) => s.fetch(path, { headers: { 'x-api-key': s.key } });

  it.each(REFUSED)('%s → 400 invalid_query', async (_what, path, detailPath) => {
    const body = await expectError(await get(path), 400, 'invalid_query');
    expect(body.details).toEqual([{ path: detailPath, message: expect.any(String) }]);
  });

  it('logged no internal error', () => {
    expect(s.logs.filter((l) => l.kind === 'request.internal_error')).toEqual([]);
  });
});
