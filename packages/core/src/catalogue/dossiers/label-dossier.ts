/** The label dossier: identity, roster, catalogue, parent and sublabels, Bandcamp. */
import { clusterIdOf, type LabelRow, type MasterRow, type ReleaseRow } from '../../dataset.js';
import type { LabelDossier } from '../../schemas/records.js';
import { bandcampHostOf, locatorsOf } from '../locators.js';
import type { AgentLookup } from '../lookup.js';
import { byYearDescThenId, compareText, countInto, countValues, topCounts, yearRange } from './counting.js';
import { namedRefOf } from './named-refs.js';

export const MAX_ROSTER = 100;
export const MAX_CATALOGUE = 500;
export const TOP_LABEL_GENRES = 5;

export interface LabelDossierInput {
  label: LabelRow;
  slug: string;
  /** The masters whose main release carries the label. */
  masters: readonly MasterRow[];
  /** Their main releases. */
  mainReleases: readonly ReleaseRow[];
  lookup: AgentLookup;
}

/**
 * - roster: the main artists of the label's masters with how many of them each has, count
 *   desc, then name asc, then cluster_id; at most 100; name = canonical name when known.
 * - catalogue.counts.masters: all of the label's masters; years: first/last master year;
 *   top_genres / top_styles: top 5 by master count, ties alphabetical; masters: year desc
 *   (unknown last) then master_id, at most 500, catno = this label's first catno on the main release.
 * - bandcamp: the first *.bandcamp.com url among the label's urls, else null.
 */
export function labelDossierOf(input: LabelDossierInput): LabelDossier {
  const { label, lookup } = input;
  const releaseById = new Map(input.mainReleases.map((release) => [release.release_id, release]));

  const rosterCounts = new Map<number, number>();
  const rosterNames = new Map<number, string>();
  for (const master of input.masters) {
    for (const artistId of new Set(master.artists.map((credit) => credit.discogs_id))) {
      countInto(rosterCounts, artistId);
      const credit = master.artists.find((entry) => entry.discogs_id === artistId);
      if (!rosterNames.has(artistId)) rosterNames.set(artistId, lookup.name('artist', artistId) ?? credit?.name ?? '');
    }
  }
  const roster = [...rosterCounts]
    .map(([artistId, masters]) => ({
      cluster_id: clusterIdOf('artist', artistId),
      slug: lookup.slug('artist', artistId),
      name: rosterNames.get(artistId) ?? '',
      masters,
    }))
    .sort((a, b) => b.masters - a.masters || compareText(a.name, b.name) || a.cluster_id - b.cluster_id)
    .slice(0, MAX_ROSTER);

  const catalogueMasters = input.masters
    .map((master) => {
      const release = master.main_release_id === null ? undefined : releaseById.get(master.main_release_id);
      const credit = release?.labels.find((entry) => entry.discogs_id === label.discogs_id);
      return { master_id: master.master_id, title: master.title, year: master.year, catno: credit?.catno ?? null };
    })
    .sort(byYearDescThenId)
    .slice(0, MAX_CATALOGUE);

  const bandcampUrl = label.urls.find((url) => bandcampHostOf(url) !== null) ?? null;
  return {
    cluster_id: clusterIdOf('label', label.discogs_id),
    kind: 'label',
    slug: input.slug,
    name: label.name,
    identity: {
      name: label.name,
      profile: label.profile,
      contact_info: label.contact_info,
      data_quality: label.data_quality,
      locators: locatorsOf({ kind: 'label', discogsId: label.discogs_id, urls: label.urls }),
    },
    roster,
    catalogue: {
      counts: { masters: input.masters.length },
      years: yearRange(input.masters.map((master) => master.year)),
      top_genres: topCounts(
        countValues(input.masters, (master) => master.genres),
        TOP_LABEL_GENRES,
      ),
      top_styles: topCounts(
        countValues(input.masters, (master) => master.styles),
        TOP_LABEL_GENRES,
      ),
      masters: catalogueMasters,
    },
    parent: label.parent ? namedRefOf('label', label.parent, lookup) : null,
    sublabels: label.sublabels.map((ref) => namedRefOf('label', ref, lookup)),
    bandcamp: bandcampUrl ? { url: bandcampUrl.trim() } : null,
  };
}
