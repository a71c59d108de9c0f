/**
 * GET /api/v2/artist/{key}: the cluster-first dossier. `fields` trims it to the named facets;
 * the discography facet embeds, per master, the full master record and its releases (what v1
 * served from its demoted master routes), so one call after resolve answers everything.
 */
import * as v from 'valibot';
import { notFound } from '../../errors/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { CallOptions, Catalogue, MasterDetail } from '../../ports/index.js';
import type { ArtistDossier } from '../../schemas/records.js';
import { textParam } from '../../validation/params.js';
import { RECORD_CACHE } from '../shared/cache.js';
import { parseAgentKey } from '../shared/keys.js';
import { agentLinks, link, withCreditLinks } from '../shared/links.js';
import { parseArtistFields } from './fields.js';
import { V2ArtistDossierSchema } from './schemas.js';

/** Master dossiers are read a few at a time: enough to overlap, not enough to drain a pool. */
const DETAIL_CONCURRENCY = 8;
/** Masters per batched read (Catalogue.masterDetails): bounds one query's size, not their number. */
const DETAIL_BATCH = 250;

/** Each discography master's record, releases and release count, batched when the catalogue can. */
async function detailsOf(catalogue: Catalogue, ids: number[], lifetime: CallOptions): Promise<Map<number, MasterDetail>> {
  const details = new Map<number, MasterDetail>();
  if (catalogue.masterDetails) {
    for (let i = 0; i < ids.length; i += DETAIL_BATCH) {
      for (const detail of await catalogue.masterDetails(ids.slice(i, i + DETAIL_BATCH), lifetime)) details.set(detail.master.master_id, detail);
    }
    return details;
  }
  for (let i = 0; i < ids.length; i += DETAIL_CONCURRENCY) {
    const found = await Promise.all(ids.slice(i, i + DETAIL_CONCURRENCY).map((id) => catalogue.masterDossier(id, lifetime)));
    for (const dossier of found) if (dossier) details.set(dossier.master.master_id, dossier);
  }
  return details;
}

async function discographyWithDetail(
  catalogue: Catalogue,
  discography: NonNullable<ArtistDossier['discography']>,
  artistLink: string,
  lifetime: CallOptions,
  linkBase: { baseUrl: string; base: string },
) {
  const details = await detailsOf(
    catalogue,
    discography.masters.map((m) => m.master_id),
    lifetime,
  );
  const masters: Array<Record<string, unknown>> = [];
  for (const entry of discography.masters) {
    const detail = details.get(entry.master_id);
    // A master listed in the discography has a dossier; one missing (a concurrent re-import) is left out, not invented.
    if (detail)
      masters.push({
        ...entry,
        master: { ...withCreditLinks(detail.master, linkBase.baseUrl, linkBase.base), _links: { artist: artistLink } },
        releases: detail.releases.map((release) => withCreditLinks(release, linkBase.baseUrl, linkBase.base)),
        release_count: detail.release_count,
      });
  }
  return { counts: discography.counts, masters };
}

export const artistV2Route = route({
  method: 'GET',
  path: '/api/v2/artist/:key',
  access: 'key',
  cache: RECORD_CACHE,
  summary: 'Artist dossier, cluster-first, optionally trimmed to some facets',
  description:
    'key is a cluster_id (from GET /api/v2/resolve), a slug, or a typed locator (discogs:123, mbid:<uuid>). fields names the facets to keep (identity, behavior, discography, bandcamp); default all. The discography facet carries each master’s full record and its releases.',
  tags: ['dossiers'],
  query: {
    fields: { schema: v.optional(textParam(100, 'Comma-separated facets to keep: identity, behavior, discography, bandcamp. Default all.')) },
  },
  responses: { 200: { description: 'The artist dossier (the requested facets).', schema: V2ArtistDossierSchema } },
  errors: ['invalid_query', 'not_found'],
  async handler({ params, query, ports, lifetime, config, base }) {
    const fields = parseArtistFields(query.fields);
    const agent = await ports.catalogue.findAgent(parseAgentKey(params.key ?? null), 'artist', lifetime);
    if (!agent) throw notFound('artist');
    const dossier = await ports.catalogue.artistDossier(agent.cluster_id, lifetime);
    if (!dossier) throw notFound('artist');
    const body: Record<string, unknown> = { cluster_id: dossier.cluster_id, kind: dossier.kind, slug: dossier.slug, name: dossier.name };
    if (fields.includes('identity') && dossier.identity) body.identity = dossier.identity;
    if (fields.includes('behavior') && dossier.behavior) body.behavior = dossier.behavior;
    if (fields.includes('discography') && dossier.discography) {
      const artistLink = link(config.baseUrl, `${base}/artist/${agent.cluster_id}?fields=discography`);
      body.discography = await discographyWithDetail(ports.catalogue, dossier.discography, artistLink, lifetime, { baseUrl: config.baseUrl, base });
    }
    if (fields.includes('bandcamp') && dossier.bandcamp !== undefined) body.bandcamp = dossier.bandcamp;
    body._links = agentLinks(config.baseUrl, base, 'artist', agent.cluster_id, agent.slug, dossier.bandcamp != null);
    return json(body);
  },
});
