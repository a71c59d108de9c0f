/** The festival dossier: identity, editions with lineups, genres. */
import { clusterIdOf, type FestivalRow, type LineupBilling } from '../../dataset.js';
import type { FestivalDossier } from '../../schemas/records.js';
import { locatorsOf } from '../locators.js';
import type { AgentLookup } from '../lookup.js';
import { compareText } from './counting.js';

const BILLING_ORDER: Record<LineupBilling, number> = { headliner: 0, main: 1, support: 2 };

/**
 * Editions latest first (starts_on desc); each lineup by billing (headliner, main, support),
 * then name, then cluster_id. Lineup artists missing from the data are left out: a lineup
 * entry needs a name and the feed only carries the Discogs id.
 */
export function festivalDossierOf(festival: FestivalRow, slug: string, lookup: AgentLookup): FestivalDossier {
  const editions = [...festival.editions]
    .sort((a, b) => compareText(b.starts_on, a.starts_on))
    .map((edition) => ({
      year: edition.year,
      starts_on: edition.starts_on,
      lineup: edition.lineup
        .flatMap((slot) => {
          const name = lookup.name('artist', slot.artist_discogs_id);
          if (name === null) return [];
          return [
            { cluster_id: clusterIdOf('artist', slot.artist_discogs_id), slug: lookup.slug('artist', slot.artist_discogs_id), name, billing: slot.billing },
          ];
        })
        .sort((a, b) => BILLING_ORDER[a.billing] - BILLING_ORDER[b.billing] || compareText(a.name, b.name) || a.cluster_id - b.cluster_id),
    }));
  return {
    cluster_id: clusterIdOf('festival', festival.festival_id),
    kind: 'festival',
    slug,
    name: festival.name,
    identity: {
      name: festival.name,
      country: festival.country,
      city: festival.city,
      url: festival.url,
      locators: locatorsOf({ kind: 'festival', discogsId: null, urls: festival.url ? [festival.url] : [] }),
    },
    editions,
    genres: festival.genres,
  };
}
