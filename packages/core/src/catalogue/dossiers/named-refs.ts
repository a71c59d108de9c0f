/** Named references (alias, member, group, parent label…) that may or may not be in the data. */
import { clusterIdOf, type DiscogsNameRef } from '../../dataset.js';
import type { AgentKind } from '../../schemas/records.js';
import type { AgentLookup } from '../lookup.js';

export interface NamedRef {
  cluster_id: number | null;
  slug: string | null;
  name: string;
}

/** cluster_id when the reference carries a Discogs id, slug when that agent is in the data. */
export function namedRefOf(kind: AgentKind, ref: DiscogsNameRef, lookup: AgentLookup): NamedRef {
  if (ref.discogs_id === null) return { cluster_id: null, slug: null, name: ref.name };
  return { cluster_id: clusterIdOf(kind, ref.discogs_id), slug: lookup.slug(kind, ref.discogs_id), name: ref.name };
}
