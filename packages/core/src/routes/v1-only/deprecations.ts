/**
 * Where the data of the demoted v1 routes went in v2 (docs/decisions.md §7). Each demoted route
 * puts its Deprecation on its own definition; these are the texts and successors they share.
 */
import type { Deprecation } from '../../http/route.js';

const V2 = '/api/v2';
/** The successor of a route whose data has no single v2 address: the field map that says where it sits. */
export const MANIFEST_SUCCESSOR = `${V2}/dossier/manifest`;

export const MASTER_WHERE =
  'Master and release detail moved into the discography facet of the master’s main artist: GET /api/v2/artist/{cluster_id}?fields=discography, each master at /discography/masters/{i} with its full record under master and its releases under releases. GET /api/v2/resolve?discogs=master/{id} names that artist; GET /api/v1/wayfind/master/{id} gives the exact path and JSON pointer.';

export const BANDCAMP_WHERE =
  'Bandcamp signals (followers, supporters, releases with tags, 12-week series, growth) moved into the bandcamp facet of the artist: GET /api/v2/artist/{cluster_id}?fields=bandcamp.';

/**
 * A route of one master: the successor resolves the master to its main artist (the exact
 * artist path needs a catalogue read, which an unauthenticated 410 does not make).
 */
export const masterDeprecation: Deprecation = {
  successor: (params) => (params.id && /^[1-9][0-9]{0,9}$/.test(params.id) ? `${V2}/resolve?discogs=master/${params.id}` : MANIFEST_SUCCESSOR),
  where: MASTER_WHERE,
};
