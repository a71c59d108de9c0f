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

/**
 * An agent's own links. `bandcamp` only for an artist known to have Bandcamp signals: every
 * link answers 200 (issue 12), and v1's Bandcamp route is 404 for an artist without them.
 */
export function agentLinks(
  baseUrl: string,
  base: string,
  kind: AgentKind,
  clusterId: number,
  slug: string | null,
  hasBandcamp = false,
): Record<string, string> {
  const links: Record<string, string> = {};
  if (kind === 'artist') {
    links.self = link(baseUrl, `${base}/artist/${clusterId}`);
    if (slug) links.dossier = link(baseUrl, `${base}/dossier/artist/${slug}`);
    if (hasBandcamp) links.bandcamp = link(baseUrl, base === '/api/v2' ? `${base}/artist/${clusterId}?fields=bandcamp` : `/api/v1/bandcamp/${clusterId}`);
  } else if (kind === 'label') {
    links.self = link(baseUrl, `${base}/label/${clusterId}`);
    if (slug) links.dossier = link(baseUrl, `${base}/dossier/label/${slug}`);
  } else if (slug) {
    links.self = link(baseUrl, `${base}/dossier/festival/${slug}`);
  }
  return links;
}

/**
 * Links of an artist or label a record credits (issue 12 item 2): its dossier in the caller's
 * version (`{base}/artist/{cluster_id}`, `{base}/label/{cluster_id}`). Every credited agent has
 * one, stubs included (docs/decisions.md §5), so the link always answers.
 */
export function refLinks(baseUrl: string, base: string, clusterId: number): Record<string, string> {
  return { dossier: link(baseUrl, `${base}/${clusterId % 4 === 2 ? 'label' : 'artist'}/${clusterId}`) };
}

/** The ref with its `_links` last. */
export function withRefLinks<T extends { cluster_id: number }>(ref: T, baseUrl: string, base: string): T & { _links: Record<string, string> } {
  return { ...ref, _links: refLinks(baseUrl, base, ref.cluster_id) };
}

/** A master record or a release: each credited artist and label with its `_links`. */
export function withCreditLinks<T extends { labels: Array<{ cluster_id: number }>; artists?: Array<{ cluster_id: number }> }>(
  record: T,
  baseUrl: string,
  base: string,
): T {
  const labels = record.labels.map((ref) => withRefLinks(ref, baseUrl, base));
  if (!record.artists) return { ...record, labels };
  return { ...record, artists: record.artists.map((ref) => withRefLinks(ref, baseUrl, base)), labels };
}

/**
 * A flat JSON object whose first member is a numeric cluster_id: an agent ref of a serialized
 * master record or release (their only flat objects starting so). Strings are matched whole, so
 * a `}` or `"` inside a name never ends the object early.
 */
const SERIALIZED_REF = /\{"cluster_id":(\d+),((?:[^"{}]|"(?:[^"\\]|\\.)*")*)\}/g;

/**
 * withCreditLinks on a record already serialized (PostgreSQL's stored records): the same bytes
 * as serializing withCreditLinks(record), without parsing the record.
 */
export function creditLinksInText(text: string, baseUrl: string, base: string): string {
  return text.replace(
    SERIALIZED_REF,
    (_match, id: string, rest: string) => `{"cluster_id":${id},${rest},"_links":${JSON.stringify(refLinks(baseUrl, base, Number(id)))}}`,
  );
}
