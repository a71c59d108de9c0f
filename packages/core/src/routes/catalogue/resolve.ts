/** GET {base}/resolve: a name, link or external id → its cluster. */
import * as v from 'valibot';
import { MASTER_ID_RANGE, SOURCE_ID_RANGE } from '../../catalogue/id-ranges.js';
import { invalidQuery, notFound } from '../../errors/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { ResolveInput } from '../../ports/index.js';
import { ClusterSchema } from '../../schemas/records.js';
import { textParam } from '../../validation/params.js';
import { LIST_CACHE } from '../shared/cache.js';
import { idWithin, isMbid } from '../shared/keys.js';
import { agentLinks } from '../shared/links.js';

const UUID_IN_PATH = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/** A pasted link → a typed locator. Discogs, MusicBrainz, Bandcamp and Spotify are understood. */
export function locatorOfUrl(raw: string): ResolveInput | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/^m\./, '');
  const segments = url.pathname.split('/').filter(Boolean);
  if (host === 'discogs.com') {
    // /artist/3225-Vince-Watson, /label/1-Planet-E, /master/113-..., optionally behind a language segment.
    const i = segments.findIndex((s) => s === 'artist' || s === 'label' || s === 'master');
    const kind = segments[i] as 'artist' | 'label' | 'master' | undefined;
    const id = Number.parseInt(segments[i + 1] ?? '', 10);
    if (i >= 0 && kind && Number.isSafeInteger(id) && id > 0) return { by: 'discogs', kind, id };
    return null;
  }
  if (host === 'musicbrainz.org') {
    const match = UUID_IN_PATH.exec(url.pathname);
    return segments[0] === 'artist' && match?.[1] ? { by: 'mbid', mbid: match[1].toLowerCase() } : null;
  }
  if (host.endsWith('.bandcamp.com') && host !== 'bandcamp.com') return { by: 'bandcamp', host };
  if (host === 'open.spotify.com') {
    const i = segments.indexOf('artist');
    const id = segments[i + 1];
    return i >= 0 && id && /^[0-9A-Za-z]{22}$/.test(id) ? { by: 'spotify', id } : null;
  }
  return null;
}

/** `discogs=123` (artist), `label/123`, `master/123` (→ the master's main artist). */
function discogsInput(value: string): ResolveInput | null {
  const match = /^(?:(artist|label|master)\/)?([1-9][0-9]*)$/.exec(value.trim());
  if (!match) return null;
  return { by: 'discogs', kind: (match[1] as 'artist' | 'label' | 'master' | undefined) ?? 'artist', id: Number(match[2]) };
}

export const resolveRoute = route({
  method: 'GET',
  path: '/resolve',
  access: 'key',
  cache: LIST_CACHE,
  summary: 'Resolve a name, link or external id to a cluster',
  description:
    'Exactly one of q (best name match), url (Discogs, MusicBrainz, Bandcamp or Spotify link), discogs (123 = artist, label/123, master/123 = the master’s main artist) or mbid.',
  tags: ['resolve'],
  query: {
    q: { schema: v.optional(textParam(200, 'A name.')) },
    url: { schema: v.optional(textParam(2000, 'A pasted Discogs, MusicBrainz, Bandcamp or Spotify link.')) },
    discogs: { schema: v.optional(textParam(40, 'Discogs id: 123 (artist), label/123 or master/123.')) },
    mbid: { schema: v.optional(textParam(36, 'MusicBrainz artist id (UUID).')) },
  },
  responses: { 200: { description: 'The cluster.', schema: ClusterSchema } },
  errors: ['invalid_query', 'not_found'],
  async handler({ query, ports, lifetime, config, base }) {
    const given = (['q', 'url', 'discogs', 'mbid'] as const).filter((k) => query[k] !== undefined);
    if (given.length !== 1) {
      throw invalidQuery([{ path: given[1] ?? 'q', message: 'give exactly one of q, url, discogs, mbid' }]);
    }
    let input: ResolveInput | null;
    if (query.q !== undefined) input = { by: 'q', q: query.q };
    else if (query.url !== undefined) {
      input = locatorOfUrl(query.url);
      if (!input) throw invalidQuery([{ path: 'url', message: 'must be a Discogs artist/label/master, MusicBrainz artist, Bandcamp or Spotify artist link' }]);
    } else if (query.discogs !== undefined) {
      input = discogsInput(query.discogs);
      if (!input) throw invalidQuery([{ path: 'discogs', message: 'must be 123, artist/123, label/123 or master/123' }]);
    } else {
      const mbid = (query.mbid as string).toLowerCase();
      if (!isMbid(mbid)) throw invalidQuery([{ path: 'mbid', message: 'must be a UUID' }]);
      input = { by: 'mbid', mbid };
    }
    if (input.by === 'discogs') idWithin(input.id, input.kind === 'master' ? MASTER_ID_RANGE : SOURCE_ID_RANGE, given[0] as string);
    const cluster = await ports.catalogue.resolve(input, lifetime);
    if (!cluster) throw notFound('cluster');
    return json({
      ...cluster,
      _links: agentLinks(
        config.baseUrl,
        base,
        cluster.kind,
        cluster.cluster_id,
        cluster.slug,
        cluster.locators.some((locator) => locator.source === 'bandcamp'),
      ),
    });
  },
});
