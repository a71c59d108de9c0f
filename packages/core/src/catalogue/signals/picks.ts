/**
 * Picks: the moments a label or festival put an artist forward. A tastemaker is judged by how
 * many of its picks later broke out.
 */
import { clusterIdOf, type FestivalRow, type MasterRow, type ReleaseRow } from '../../dataset.js';
import { pickDate } from '../dates.js';

export interface Pick {
  tastemaker_id: number;
  artist_id: number;
  /** ISO date. */
  picked_on: string;
}

/** Keeps the earliest date per (tastemaker, artist). */
function earliest(picks: Map<string, Pick>, pick: Pick): void {
  const key = `${pick.tastemaker_id}:${pick.artist_id}`;
  const known = picks.get(key);
  if (!known || pick.picked_on < known.picked_on) picks.set(key, pick);
}

/**
 * A label picks each distinct main artist of the masters whose main release carries that
 * label, on the earliest release date among those masters (released 'YYYY-MM-DD';
 * 'YYYY-MM-00' → day 01; 'YYYY' → 01-01; else the master year's January 1st; masters with no
 * date at all give no pick). `mainReleases` are the main releases of `masters`.
 */
export function labelPicksOf(masters: readonly MasterRow[], mainReleases: readonly ReleaseRow[]): Pick[] {
  const releaseById = new Map(mainReleases.map((release) => [release.release_id, release]));
  const picks = new Map<string, Pick>();
  for (const master of masters) {
    const release = master.main_release_id === null ? undefined : releaseById.get(master.main_release_id);
    if (!release) continue;
    const date = pickDate(release.released, master.year);
    if (!date) continue;
    const labelIds = new Set(release.labels.flatMap((label) => (label.discogs_id === null ? [] : [label.discogs_id])));
    const artistIds = new Set(master.artists.map((artist) => artist.discogs_id));
    for (const labelId of labelIds) {
      for (const artistId of artistIds) {
        earliest(picks, { tastemaker_id: clusterIdOf('label', labelId), artist_id: clusterIdOf('artist', artistId), picked_on: date });
      }
    }
  }
  return [...picks.values()];
}

/** A festival picks each artist of any edition lineup, on the earliest edition's starts_on with that artist. */
export function festivalPicksOf(festivals: readonly FestivalRow[]): Pick[] {
  const picks = new Map<string, Pick>();
  for (const festival of festivals) {
    const tastemakerId = clusterIdOf('festival', festival.festival_id);
    for (const edition of festival.editions) {
      for (const slot of edition.lineup) {
        earliest(picks, { tastemaker_id: tastemakerId, artist_id: clusterIdOf('artist', slot.artist_discogs_id), picked_on: edition.starts_on });
      }
    }
  }
  return [...picks.values()];
}
