import * as v from 'valibot';
import { CLUSTER_ID_RANGE } from '../../catalogue/id-ranges.js';
import { invalidQuery, notFound } from '../../http/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { BandcampReleaseData } from '../../ports/index.js';
import { BandcampReleaseSchema, BandcampSignalsSchema, LinksSchema } from '../../schemas/records.js';
import { integerParam, limitParam, textParam } from '../../validation/params.js';
import { parseAgentKey } from '../shared/keys.js';
import { agentLinks } from '../shared/links.js';

export const BandcampManifestSchema = v.object({
  as_of: v.nullable(v.string()),
  artists: v.array(v.object({ cluster_id: v.number(), slug: v.string(), name: v.string(), url: v.string(), followers: v.number(), supporters: v.number() })),
  next_cursor: v.nullable(v.string()),
  fields: v.record(v.string(), v.string()),
});

export const BandcampReleasesSchema = v.object({
  artist: v.object({ cluster_id: v.number(), slug: v.string(), name: v.string() }),
  releases: v.array(BandcampReleaseSchema),
});

const MANIFEST_FIELDS = {
  followers: 'Bandcamp followers at the latest observation (as_of).',
  supporters: 'Distinct supporters (buyers) at the latest observation.',
  series: 'Weekly observations, last 12 weeks: GET /api/v1/bandcamp/{artistKey}.',
  growth: 'Relative growth of followers + 2 × supporters over 30 and 90 days.',
  releases: 'Releases with tags: GET /api/v1/bandcamp/release?artist={key}.',
};

export const bandcampArtistRoute = () =>
  route({
    method: 'GET',
    path: '/api/v1/bandcamp/:artistKey',
    access: 'key',
    summary: 'Bandcamp signals of an artist',
    tags: ['bandcamp'],
    responses: {
      200: {
        description: 'Followers, supporters, releases, tags, 12-week series and growth.',
        schema: v.object({ ...BandcampSignalsSchema.entries, _links: LinksSchema }),
      },
    },
    errors: ['invalid_query', 'not_found'],
    async handler({ params, ports, lifetime, config }) {
      const agent = await ports.catalogue.findAgent(parseAgentKey(params.artistKey ?? null, 'artistKey'), 'artist', lifetime);
      if (!agent) throw notFound('artist');
      const signals = await ports.catalogue.bandcampArtist(agent.cluster_id, lifetime);
      if (!signals) throw notFound('bandcamp signals for this artist');
      return json({ ...signals, _links: agentLinks(config.baseUrl, '/api/v1', 'artist', agent.cluster_id, agent.slug) });
    },
  });

export const bandcampManifestRoute = () =>
  route({
    method: 'GET',
    path: '/api/v1/bandcamp',
    access: 'key',
    summary: 'Bandcamp manifest: the artists covered, their latest counts, and the fields served',
    tags: ['bandcamp'],
    query: {
      tag: { schema: v.optional(textParam(100, 'Only artists with a release carrying this tag.')) },
      limit: { schema: limitParam(50) },
      // The cursor is the last artist's cluster_id: above what the catalogue holds it was tampered with.
      cursor: { schema: v.optional(integerParam(1, CLUSTER_ID_RANGE.held, 'next_cursor of the previous page.')) },
    },
    responses: { 200: { description: 'A page of covered artists.', schema: BandcampManifestSchema } },
    errors: ['invalid_query'],
    async handler({ query, ports, lifetime }) {
      const manifest = await ports.catalogue.bandcampManifest({ tag: query.tag ?? null, limit: query.limit + 1, after: query.cursor ?? null }, lifetime);
      const page = manifest.artists.slice(0, query.limit);
      const last = page[page.length - 1];
      return json({
        as_of: manifest.as_of,
        artists: page,
        next_cursor: manifest.artists.length > query.limit && last ? String(last.cluster_id) : null,
        fields: MANIFEST_FIELDS,
      });
    },
  });

export const bandcampReleaseRoute = () =>
  route({
    method: 'GET',
    path: '/api/v1/bandcamp/release',
    access: 'key',
    summary: 'Bandcamp release data, by release link or by artist',
    tags: ['bandcamp'],
    query: {
      url: { schema: v.optional(textParam(2000, 'A Bandcamp release link (https://<artist>.bandcamp.com/album/…).')) },
      artist: { schema: v.optional(textParam(200, 'An artist key: cluster_id, slug or typed locator.')) },
    },
    responses: { 200: { description: 'The artist and the matching releases.', schema: BandcampReleasesSchema } },
    errors: ['invalid_query', 'not_found'],
    async handler({ query, ports, lifetime }) {
      if ((query.url === undefined) === (query.artist === undefined)) {
        throw invalidQuery([{ path: 'url', message: 'give exactly one of url, artist' }]);
      }
      let result: BandcampReleaseData | null;
      if (query.url !== undefined) {
        if (!/^https?:\/\/[a-z0-9-]+\.bandcamp\.com\/(album|track)\/[^?#\s]+/i.test(query.url)) {
          throw invalidQuery([{ path: 'url', message: 'must be a Bandcamp album or track link' }]);
        }
        result = await ports.catalogue.bandcampReleases({ by: 'url', url: query.url.replace(/[?#].*$/, '') }, lifetime);
      } else {
        const agent = await ports.catalogue.findAgent(parseAgentKey(query.artist as string, 'artist'), 'artist', lifetime);
        if (!agent) throw notFound('artist');
        result = await ports.catalogue.bandcampReleases({ by: 'artist', cluster_id: agent.cluster_id }, lifetime);
      }
      if (!result) throw notFound('bandcamp release');
      return json(result);
    },
  });
