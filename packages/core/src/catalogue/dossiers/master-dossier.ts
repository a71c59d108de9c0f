/** The per-master dossier: the master record, its releases, related masters. */
import type { MasterRow, ReleaseRow } from '../../dataset.js';
import type { MasterDossierData } from '../../schemas/records.js';
import type { AgentLookup } from '../lookup.js';
import { masterRecordOf, releaseRecordOf } from '../master-record.js';
import { byYearDescThenId } from './counting.js';

export const MAX_RELEASES = 100;
export const MAX_RELATED = 10;

export interface MasterDossierInput {
  master: MasterRow;
  /** Every release of the master. */
  releases: readonly ReleaseRow[];
  /** Masters of the master's first main artist (the master itself may be included; it is skipped). */
  artistMasters: readonly MasterRow[];
  lookup: AgentLookup;
}

/**
 * A master's releases as its dossier (and the v2 discography) shows them: sorted by released
 * then release_id, at most MAX_RELEASES; release_count counts them all. `releaseCount` is given
 * when `releases` holds only the first MAX_RELEASES in that order (a store that sorts and
 * limits them itself, see masterReleasesOf).
 */
export function releasesOf(releases: readonly ReleaseRow[], lookup: AgentLookup, releaseCount: number = releases.length) {
  return {
    releases: [...releases]
      .sort(byReleasedThenId)
      .slice(0, MAX_RELEASES)
      .map((release) => releaseRecordOf(release, lookup)),
    release_count: releaseCount,
  };
}

/** Releases by `released` (unknown last) then release_id. */
export function byReleasedThenId(a: ReleaseRow, b: ReleaseRow): number {
  if (a.released !== b.released) {
    if (a.released === null) return 1;
    if (b.released === null) return -1;
    return a.released < b.released ? -1 : 1;
  }
  return a.release_id - b.release_id;
}

/**
 * releases: sorted by released then release_id, at most 100; release_count: all of them.
 * related_masters: other masters of the first main artist, year desc (unknown last) then
 * master_id, at most 10, relation 'same_artist'.
 */
export function masterDossierOf(input: MasterDossierInput): MasterDossierData {
  const { master, lookup } = input;
  const mainRelease = input.releases.find((release) => release.release_id === master.main_release_id) ?? null;
  return {
    master: masterRecordOf(master, mainRelease, lookup),
    ...releasesOf(input.releases, lookup),
    related_masters: input.artistMasters
      .filter((other) => other.master_id !== master.master_id)
      .sort(byYearDescThenId)
      .slice(0, MAX_RELATED)
      .map((other) => ({ master_id: other.master_id, title: other.title, year: other.year, relation: 'same_artist' })),
  };
}
