/**
 * What record assembly needs to know about agents it only references by Discogs or festival
 * id: their slug and canonical name. The memory catalogue answers from its maps; an SQL
 * adapter answers from the rows it fetched for the record at hand.
 */
import { clusterIdOf } from '../dataset.js';
import type { AgentKind, AgentRef } from '../schemas/records.js';

export interface AgentLookup {
  /** Slug of the agent, or null when it is not in the data. */
  slug(kind: AgentKind, sourceId: number): string | null;
  /** Canonical name of the agent, or null when it is not in the data. */
  name(kind: AgentKind, sourceId: number): string | null;
}

/** A reference to an agent that may be missing from the data: the credited name stands in. */
export function refOf(lookup: AgentLookup, kind: AgentKind, sourceId: number, creditedName: string): AgentRef {
  return { cluster_id: clusterIdOf(kind, sourceId), slug: lookup.slug(kind, sourceId), name: creditedName };
}

/** A lookup over plain maps keyed by source id, for callers that hold the rows. */
export function mapLookup(maps: Partial<Record<AgentKind, Map<number, { slug: string; name: string }>>>): AgentLookup {
  return {
    slug: (kind, id) => maps[kind]?.get(id)?.slug ?? null,
    name: (kind, id) => maps[kind]?.get(id)?.name ?? null,
  };
}
