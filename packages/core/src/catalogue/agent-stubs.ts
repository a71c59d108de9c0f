/**
 * Agents for every credit (issue 12, docs/decisions.md §5 "Agents for every credit"): an
 * artist or label that a master, release, alias, member/group, parent or sublabel names by
 * Discogs id is an agent even when the artists/labels dump does not hold it. Its stub row
 * carries what the credits say (the name) and nothing else; the dump's row, when it comes,
 * replaces it.
 *
 * The stub's name is the name the credits use most often, ties to the smallest by code point,
 * so it depends neither on import order nor on which store computes it: PostgreSQL's finish()
 * computes the same set in SQL (packages/postgres/src/writer/agent-stubs.ts), and the
 * conformance suite compares the two.
 */
import type { ArtistRow, CatalogueData, DiscogsNameRef, LabelRow } from '../dataset.js';
import { SOURCE_ID_RANGE } from './id-ranges.js';

type Tally = Map<number, Map<string, number>>;

function count(tally: Tally, ref: DiscogsNameRef | null | undefined): void {
  if (!ref || ref.discogs_id === null || ref.discogs_id < 1 || ref.discogs_id > SOURCE_ID_RANGE.held) return;
  const names = tally.get(ref.discogs_id) ?? new Map<string, number>();
  tally.set(ref.discogs_id, names);
  names.set(ref.name, (names.get(ref.name) ?? 0) + 1);
}

/** Code point order (PostgreSQL's `COLLATE "C"` on UTF-8), not UTF-16 unit order. */
function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = (left[i]?.codePointAt(0) ?? 0) - (right[i]?.codePointAt(0) ?? 0);
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

/** The most used name of one id; ties to the smallest by code point. */
export function preferredName(names: Map<string, number>): string {
  let best: [string, number] | null = null;
  for (const entry of names) {
    if (!best || entry[1] > best[1] || (entry[1] === best[1] && compareCodePoints(entry[0], best[0]) < 0)) best = entry;
  }
  return best?.[0] ?? '';
}

export function artistStub(discogsId: number, name: string): ArtistRow {
  return {
    discogs_id: discogsId,
    name,
    real_name: null,
    profile: null,
    data_quality: null,
    name_variations: [],
    aliases: [],
    members: [],
    groups: [],
    urls: [],
    mbid: null,
    spotify_id: null,
  };
}

export function labelStub(discogsId: number, name: string): LabelRow {
  return { discogs_id: discogsId, name, profile: null, contact_info: null, data_quality: null, urls: [], parent: null, sublabels: [] };
}

/** Stub rows for every credited artist and label the data has no row for, by ascending id. */
export function agentStubsOf(data: Pick<CatalogueData, 'artists' | 'labels' | 'masters' | 'releases'>): { artists: ArtistRow[]; labels: LabelRow[] } {
  const artists: Tally = new Map();
  const labels: Tally = new Map();
  for (const master of data.masters) for (const credit of master.artists) count(artists, credit);
  for (const release of data.releases) {
    for (const credit of release.artists) count(artists, credit);
    for (const credit of release.extra_artists) count(artists, credit);
    for (const credit of release.labels) count(labels, credit);
  }
  for (const artist of data.artists) for (const ref of [...artist.aliases, ...artist.members, ...artist.groups]) count(artists, ref);
  for (const label of data.labels) for (const ref of [label.parent, ...label.sublabels]) count(labels, ref);
  const known = { artists: new Set(data.artists.map((row) => row.discogs_id)), labels: new Set(data.labels.map((row) => row.discogs_id)) };
  const stubs = <T>(tally: Tally, have: Set<number>, make: (id: number, name: string) => T) =>
    [...tally]
      .filter(([id]) => !have.has(id))
      .sort((a, b) => a[0] - b[0])
      .map(([id, names]) => make(id, preferredName(names)));
  return { artists: stubs(artists, known.artists, artistStub), labels: stubs(labels, known.labels, labelStub) };
}

/** The data with a stub row for every credited agent it lacks (what the memory catalogue indexes). */
export function withAgentStubs(data: CatalogueData): CatalogueData {
  const stubs = agentStubsOf(data);
  if (stubs.artists.length === 0 && stubs.labels.length === 0) return data;
  return { ...data, artists: [...data.artists, ...stubs.artists], labels: [...data.labels, ...stubs.labels] };
}
