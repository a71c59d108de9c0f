/** An agent's dossier with its links, found by a parsed key: the v1 artist, label and by-slug routes share it. */
import { notFound } from '../../errors/api-error.js';
import type { RouteContext } from '../../http/route.js';
import type { AgentKey } from '../../ports/index.js';
import type { AgentKind } from '../../schemas/records.js';
import { agentLinks } from './links.js';

export async function dossierOf(ctx: RouteContext, kind: AgentKind, key: AgentKey): Promise<Record<string, unknown>> {
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
  const hasBandcamp = 'bandcamp' in dossier && dossier.bandcamp != null;
  return { ...dossier, _links: agentLinks(config.baseUrl, base, kind, agent.cluster_id, agent.slug, hasBandcamp) };
}
