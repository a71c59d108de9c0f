/** Artist, label and festival dossiers, by `{key}` (cluster_id, slug, locator) or by slug. */
import { notFound } from '../../http/api-error.js';
import { json } from '../../http/json.js';
import { type RouteContext, route } from '../../http/route.js';
import type { AgentKey } from '../../ports/index.js';
import { type AgentKind, ArtistDossierSchema, FestivalDossierSchema, LabelDossierSchema } from '../../schemas/records.js';
import { parseAgentKey, parseSlug } from '../shared/keys.js';
import { agentLinks } from '../shared/links.js';

async function dossierOf(ctx: RouteContext, kind: AgentKind, key: AgentKey): Promise<Record<string, unknown>> {
  const { ports, lifetime, config, base } = ctx;
  const agent = await ports.catalogue.findAgent(key, kind, lifetime);
  if (!agent) throw notFound(kind);
  const dossier =
    kind === 'artist'
      ? await ports.catalogue.artistDossier(agent.cluster_id, lifetime)
      : kind === 'label'
        ? await ports.catalogue.labelDossier(agent.cluster_id, lifetime)
        : await ports.catalogue.festivalDossier(agent.cluster_id, lifetime);
  if (!dossier) throw notFound(kind);
  return { ...dossier, _links: agentLinks(config.baseUrl, base, kind, agent.cluster_id, agent.slug) };
}

export const artistRoute = (base: string) =>
  route({
    method: 'GET',
    path: `${base}/artist/:key`,
    access: 'key',
    summary: 'Full artist dossier',
    description: 'key is a cluster_id, a slug, or a typed locator (discogs:123, mbid:<uuid>). Facets: identity, behavior, discography, bandcamp.',
    tags: ['dossiers'],
    responses: { 200: { description: 'The artist dossier.', schema: ArtistDossierSchema } },
    errors: ['invalid_query', 'not_found'],
    async handler(ctx) {
      return json(await dossierOf(ctx, 'artist', parseAgentKey(ctx.params.key ?? null)));
    },
  });

export const labelRoute = (base: string) =>
  route({
    method: 'GET',
    path: `${base}/label/:key`,
    access: 'key',
    summary: 'Label dossier',
    description: 'key is a cluster_id, a slug, or discogs:<label id>.',
    tags: ['dossiers'],
    responses: { 200: { description: 'The label dossier.', schema: LabelDossierSchema } },
    errors: ['invalid_query', 'not_found'],
    async handler(ctx) {
      return json(await dossierOf(ctx, 'label', parseAgentKey(ctx.params.key ?? null)));
    },
  });

const SLUG_DOSSIERS = [
  { kind: 'artist', schema: ArtistDossierSchema },
  { kind: 'label', schema: LabelDossierSchema },
  { kind: 'festival', schema: FestivalDossierSchema },
] as const;

export const slugDossierRoutes = (base: string) =>
  SLUG_DOSSIERS.map(({ kind, schema }) =>
    route({
      method: 'GET',
      path: `${base}/dossier/${kind}/:slug`,
      access: 'key',
      summary: `${kind[0]?.toUpperCase()}${kind.slice(1)} dossier by slug`,
      tags: ['dossiers'],
      responses: { 200: { description: `The ${kind} dossier.`, schema } },
      errors: ['invalid_query', 'not_found'],
      async handler(ctx) {
        return json(await dossierOf(ctx, kind, parseSlug(ctx.params.slug ?? null)));
      },
    }),
  );
