/** The master record (MasterData) and release records, from rows. */
import { clusterIdOf, type LabelCreditRow, type MasterRow, type ReleaseRow } from '../dataset.js';
import type { MasterData, MasterDossierData } from '../schemas/records.js';
import type { AgentLookup } from './lookup.js';

type MasterLabel = MasterData['labels'][number];
export type ReleaseData = MasterDossierData['releases'][number];

/** Distinct format names in order of first appearance. */
export function formatNamesOf(release: ReleaseRow | null): string[] {
  return release ? [...new Set(release.formats.map((format) => format.name))] : [];
}

/**
 * Label credits with a cluster id. A credit without a Discogs label id cannot be referenced
 * by cluster id, so it is left out; the same label credited twice appears once (first catno).
 */
export function labelRefsOf(labels: LabelCreditRow[], lookup: AgentLookup): MasterLabel[] {
  const seen = new Set<number>();
  const refs: MasterLabel[] = [];
  for (const label of labels) {
    if (label.discogs_id === null || seen.has(label.discogs_id)) continue;
    seen.add(label.discogs_id);
    refs.push({ cluster_id: clusterIdOf('label', label.discogs_id), slug: lookup.slug('label', label.discogs_id), name: label.name, catno: label.catno });
  }
  return refs;
}

/**
 * formats = distinct format names of the main release; country, released and labels come from
 * the main release too (empty / null without one). Artist and label names are the credited
 * names; slug is null when the agent is not in the data.
 */
export function masterRecordOf(master: MasterRow, mainRelease: ReleaseRow | null, lookup: AgentLookup): MasterData {
  return {
    master_id: master.master_id,
    title: master.title,
    year: master.year,
    main_release_id: master.main_release_id,
    artists: master.artists.map((credit) => ({
      cluster_id: clusterIdOf('artist', credit.discogs_id),
      slug: lookup.slug('artist', credit.discogs_id),
      name: credit.name,
      anv: credit.anv,
      join: credit.join,
    })),
    genres: master.genres,
    styles: master.styles,
    formats: formatNamesOf(mainRelease),
    country: mainRelease?.country ?? null,
    labels: mainRelease ? labelRefsOf(mainRelease.labels, lookup) : [],
    released: mainRelease?.released ?? null,
    data_quality: master.data_quality,
  };
}

export function releaseRecordOf(release: ReleaseRow, lookup: AgentLookup): ReleaseData {
  return {
    release_id: release.release_id,
    master_id: release.master_id,
    title: release.title,
    country: release.country,
    released: release.released,
    formats: formatNamesOf(release),
    labels: labelRefsOf(release.labels, lookup),
    is_main_release: release.is_main_release,
  };
}
