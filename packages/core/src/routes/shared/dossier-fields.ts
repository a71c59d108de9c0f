/** The dossier field map: every facet and field with its type and meaning (the v1 and v2 manifests). */
import * as v from 'valibot';
import { named } from '../../schemas/named.js';

interface FieldDoc {
  type: string;
  description: string;
}

type FacetMap = Record<string, Record<string, FieldDoc>>;

const f = (type: string, description: string): FieldDoc => ({ type, description });

export const ARTIST_FACETS: FacetMap = {
  identity: {
    name: f('string', 'Primary name.'),
    real_name: f('string|null', 'Legal or real name where known.'),
    name_variations: f('string[]', 'Other spellings seen on releases.'),
    aliases: f('ref[]', 'Other names the same person records under.'),
    members: f('ref[]', 'Members, for a group.'),
    groups: f('ref[]', 'Groups this artist belongs to.'),
    profile: f('string|null', 'Biography text (Discogs markup kept).'),
    data_quality: f('string|null', 'Discogs data quality grade.'),
    locators: f('locator[]', 'Identifiers and links in other sources: discogs, musicbrainz, bandcamp, spotify, website.'),
  },
  behavior: {
    active_years: f('{first, last}', 'First and last year with a master.'),
    releases_per_year: f('{year, count}[]', 'Masters per year.'),
    top_genres: f('{name, count}[]', 'Top 5 genres by master count.'),
    top_styles: f('{name, count}[]', 'Top 5 styles by master count.'),
    label_loyalty: f('{top_label, share, distinct_labels}', 'Share of masters on the most used label.'),
    collaborators: f('{cluster_id, slug, name, count}[]', 'Artists credited on the same masters, top 20.'),
    festival_appearances: f('{cluster_id, slug, name, year, billing}[]', 'Festival editions with this artist on the lineup.'),
  },
  discography: {
    counts: f('{masters, main, appearances}', 'Totals.'),
    masters: f('{master_id, title, year, role, genres, styles}[]', 'Masters, newest first, at most 500.'),
  },
  bandcamp: {
    url: f('string', 'Bandcamp page.'),
    as_of: f('date', 'Date of the latest observation.'),
    followers: f('integer', 'Followers at as_of.'),
    supporters: f('integer', 'Supporters at as_of.'),
    releases: f('{title, url, released, tags}[]', 'Releases on Bandcamp.'),
    tags: f('{name, count}[]', 'Top tags over releases.'),
    series: f('{date, followers, supporters}[]', 'Last 12 weekly observations.'),
    growth: f('{d30, d90}', 'Relative growth of followers + 2 × supporters over 30 and 90 days.'),
  },
};

const LABEL_FACETS: FacetMap = {
  identity: {
    name: f('string', 'Label name.'),
    profile: f('string|null', 'Profile text.'),
    contact_info: f('string|null', 'Contact details.'),
    locators: f('locator[]', 'Links in other sources.'),
  },
  roster: { roster: f('{cluster_id, slug, name, masters}[]', 'Artists with masters on the label, most first.') },
  catalogue: { catalogue: f('{counts, years, top_genres, top_styles, masters}', 'Masters whose main release carries the label.') },
  family: { parent: f('ref|null', 'Parent label.'), sublabels: f('ref[]', 'Sublabels.') },
  bandcamp: { bandcamp: f('{url}|null', 'Bandcamp page of the label.') },
};

const FESTIVAL_FACETS: FacetMap = {
  identity: { name: f('string', 'Festival name.'), country: f('string|null', 'Country.'), city: f('string|null', 'City.'), url: f('string|null', 'Website.') },
  editions: { editions: f('{year, starts_on, lineup[]}[]', 'Editions with their lineups (billing: headliner, main, support).') },
  genres: { genres: f('string[]', 'Genres the festival programs.') },
};

export const ManifestSchema = named(
  'DossierManifest',
  v.object({
    version: v.string(),
    dossiers: v.record(
      v.string(),
      v.object({ route: v.string(), facets: v.record(v.string(), v.record(v.string(), v.object({ type: v.string(), description: v.string() }))) }),
    ),
    notes: v.array(v.string()),
  }),
);

export function manifestFor(base: string) {
  return {
    version: base.slice(5),
    dossiers: {
      artist: { route: `${base}/artist/{key}`, facets: ARTIST_FACETS },
      label: { route: `${base}/label/{key}`, facets: LABEL_FACETS },
      festival: { route: `${base}/dossier/festival/{slug}`, facets: FESTIVAL_FACETS },
      master: {
        route: '/api/v1/dossier/master/{id}',
        facets: {
          master: { master: f('master', 'The master record (as GET /api/v1/masters/{id}).') },
          releases: { releases: f('release[]', 'Releases of the master, at most 100.'), release_count: f('integer', 'Total releases.') },
          related: { related_masters: f('{master_id, title, year, relation}[]', 'Other masters of the same main artist.') },
        },
      },
    },
    notes: ['key accepts a cluster_id, a slug, or a typed locator (discogs:123, mbid:<uuid>).'],
  };
}
