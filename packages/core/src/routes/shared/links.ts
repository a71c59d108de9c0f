/** `_links` are absolute (BASE_URL) and point into the version the caller used. */
import type { AgentKind } from '../../schemas/records.js';

export function link(baseUrl: string, path: string): string {
  return baseUrl + path;
}

export function masterLinks(baseUrl: string, base: string, masterId: number): Record<string, string> {
  // v2 has no master route: a master sits in its main artist's discography, which resolve names.
  if (base === '/api/v2') return { artist: link(baseUrl, `/api/v2/resolve?discogs=master/${masterId}`) };
  return {
    self: link(baseUrl, `/api/v1/masters/${masterId}`),
    dossier: link(baseUrl, `/api/v1/dossier/master/${masterId}`),
  };
}

export function agentLinks(baseUrl: string, base: string, kind: AgentKind, clusterId: number, slug: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  if (kind === 'artist') {
    links.self = link(baseUrl, `${base}/artist/${clusterId}`);
    if (slug) links.dossier = link(baseUrl, `${base}/dossier/artist/${slug}`);
    links.bandcamp = link(baseUrl, base === '/api/v2' ? `${base}/artist/${clusterId}?fields=bandcamp` : `/api/v1/bandcamp/${clusterId}`);
  } else if (kind === 'label') {
    links.self = link(baseUrl, `${base}/label/${clusterId}`);
    if (slug) links.dossier = link(baseUrl, `${base}/dossier/label/${slug}`);
  } else if (slug) {
    links.self = link(baseUrl, `${base}/dossier/festival/${slug}`);
  }
  return links;
}
