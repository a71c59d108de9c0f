/**
 * Shapes of the records the API serves, as valibot schemas.
 * They are the single source for the TypeScript types of the Catalogue port and for the
 * response schemas of the OpenAPI documents, so the code and the description cannot drift.
 */
import * as v from 'valibot';
import { named } from './named.js';

const nullableString = v.nullable(v.string());
const nullableInt = v.nullable(v.pipe(v.number(), v.integer()));

export const AgentKindSchema = v.picklist(['artist', 'label', 'festival']);
export type AgentKind = v.InferOutput<typeof AgentKindSchema>;

export const LinksSchema = v.record(v.string(), v.string());

export const LocatorSchema = named(
  'Locator',
  v.object({
    source: v.picklist(['discogs', 'musicbrainz', 'bandcamp', 'spotify', 'website']),
    id: v.string(),
    url: v.string(),
  }),
);
export type Locator = v.InferOutput<typeof LocatorSchema>;

/** A reference from one record to an agent (artist, label or festival). */
export const AgentRefSchema = named(
  'AgentRef',
  v.object({
    cluster_id: v.number(),
    slug: nullableString,
    name: v.string(),
  }),
);
export type AgentRef = v.InferOutput<typeof AgentRefSchema>;

/** Links of a credited agent: `dossier`, its dossier in the caller's version (routes add them). */
const RefLinksSchema = v.optional(v.pipe(LinksSchema, v.description('dossier: the credited agent’s dossier in the version called.')));

export const MasterArtistSchema = named(
  'MasterArtist',
  v.object({
    cluster_id: v.number(),
    slug: nullableString,
    name: v.string(),
    anv: nullableString,
    join: nullableString,
    _links: RefLinksSchema,
  }),
);

export const MasterLabelSchema = named(
  'MasterLabel',
  v.object({
    cluster_id: v.number(),
    slug: nullableString,
    name: v.string(),
    catno: nullableString,
    _links: RefLinksSchema,
  }),
);

export const MasterSchema = named(
  'Master',
  v.object({
    master_id: v.number(),
    title: v.string(),
    year: nullableInt,
    main_release_id: nullableInt,
    artists: v.array(MasterArtistSchema),
    genres: v.array(v.string()),
    styles: v.array(v.string()),
    formats: v.array(v.string()),
    country: nullableString,
    labels: v.array(MasterLabelSchema),
    released: nullableString,
    data_quality: nullableString,
    _links: LinksSchema,
  }),
);
export type Master = v.InferOutput<typeof MasterSchema>;
/** What the Catalogue port returns; core adds `_links`. */
export type MasterData = Omit<Master, '_links'>;

export const ReleaseSchema = named(
  'Release',
  v.object({
    release_id: v.number(),
    master_id: nullableInt,
    title: v.string(),
    country: nullableString,
    released: nullableString,
    formats: v.array(v.string()),
    labels: v.array(MasterLabelSchema),
    is_main_release: v.boolean(),
  }),
);
export type Release = v.InferOutput<typeof ReleaseSchema>;

export const MasterDossierSchema = named(
  'MasterDossier',
  v.object({
    master: MasterSchema,
    releases: v.array(ReleaseSchema),
    release_count: v.number(),
    related_masters: v.array(v.object({ master_id: v.number(), title: v.string(), year: nullableInt, relation: v.string() })),
    _links: LinksSchema,
  }),
);
export type MasterDossierData = Omit<v.InferOutput<typeof MasterDossierSchema>, '_links' | 'master'> & {
  master: MasterData;
};

export const SearchHitSchema = named(
  'SearchHit',
  v.object({
    type: v.picklist(['master', 'artist', 'label', 'festival']),
    id: v.number(),
    slug: nullableString,
    name: v.string(),
    year: nullableInt,
    artists: v.array(v.string()),
    genres: v.array(v.string()),
    styles: v.array(v.string()),
    credits: v.optional(
      v.pipe(
        v.array(v.object({ cluster_id: v.number(), slug: nullableString, name: v.string(), _links: RefLinksSchema })),
        v.description('A master’s artists, each with its slug and _links.dossier (masters only).'),
      ),
    ),
    score: v.pipe(
      v.number(),
      v.description('Field-boosted relevance: integer points (words matched; in title/artist; phrase; whole words) plus popularity below 1.'),
    ),
    _links: LinksSchema,
  }),
);
export type SearchHit = v.InferOutput<typeof SearchHitSchema>;
export type SearchHitData = Omit<SearchHit, '_links'>;

export const FacetValueSchema = named('FacetValue', v.object({ value: v.union([v.string(), v.number()]), count: v.number() }));
export type FacetValue = v.InferOutput<typeof FacetValueSchema>;

export const ClusterSchema = named(
  'Cluster',
  v.object({
    cluster_id: v.number(),
    kind: AgentKindSchema,
    slug: v.string(),
    name: v.string(),
    locators: v.array(LocatorSchema),
    _links: LinksSchema,
  }),
);
export type ClusterData = Omit<v.InferOutput<typeof ClusterSchema>, '_links'>;

const NamedRefSchema = named('NamedRef', v.object({ cluster_id: nullableInt, slug: nullableString, name: v.string() }));

export const ArtistIdentitySchema = named(
  'ArtistIdentity',
  v.object({
    name: v.string(),
    real_name: nullableString,
    name_variations: v.array(v.string()),
    aliases: v.array(NamedRefSchema),
    members: v.array(NamedRefSchema),
    groups: v.array(NamedRefSchema),
    profile: nullableString,
    data_quality: nullableString,
    locators: v.array(LocatorSchema),
  }),
);

export const CountSchema = named('Count', v.object({ name: v.string(), count: v.number() }));

export const ArtistBehaviorSchema = named(
  'ArtistBehavior',
  v.object({
    active_years: v.object({ first: nullableInt, last: nullableInt }),
    releases_per_year: v.array(v.object({ year: v.number(), count: v.number() })),
    top_genres: v.array(CountSchema),
    top_styles: v.array(CountSchema),
    label_loyalty: v.object({
      top_label: v.nullable(NamedRefSchema),
      share: v.number(),
      distinct_labels: v.number(),
    }),
    collaborators: v.array(v.object({ cluster_id: v.number(), slug: nullableString, name: v.string(), count: v.number() })),
    festival_appearances: v.array(v.object({ cluster_id: v.number(), slug: v.string(), name: v.string(), year: v.number(), billing: v.string() })),
  }),
);

export const DiscographyMasterSchema = named(
  'DiscographyMaster',
  v.object({
    master_id: v.number(),
    title: v.string(),
    year: nullableInt,
    role: v.string(),
    genres: v.array(v.string()),
    styles: v.array(v.string()),
  }),
);

export const ArtistDiscographySchema = named(
  'ArtistDiscography',
  v.object({
    counts: v.object({ masters: v.number(), main: v.number(), appearances: v.number() }),
    masters: v.array(DiscographyMasterSchema),
  }),
);

export const BandcampPointSchema = named('BandcampPoint', v.object({ date: v.string(), followers: v.number(), supporters: v.number() }));
export const BandcampReleaseSchema = named(
  'BandcampRelease',
  v.object({
    title: v.string(),
    url: v.string(),
    released: nullableString,
    tags: v.array(v.string()),
  }),
);

export const BandcampSignalsSchema = named(
  'BandcampSignals',
  v.object({
    cluster_id: v.number(),
    slug: v.string(),
    name: v.string(),
    url: v.string(),
    as_of: v.string(),
    followers: v.number(),
    supporters: v.number(),
    releases: v.array(BandcampReleaseSchema),
    tags: v.array(CountSchema),
    series: v.array(BandcampPointSchema),
    growth: v.object({ d30: v.nullable(v.number()), d90: v.nullable(v.number()) }),
  }),
);
export type BandcampSignals = v.InferOutput<typeof BandcampSignalsSchema>;

export const ArtistDossierSchema = named(
  'ArtistDossier',
  v.object({
    cluster_id: v.number(),
    kind: v.literal('artist'),
    slug: v.string(),
    name: v.string(),
    identity: v.optional(ArtistIdentitySchema),
    behavior: v.optional(ArtistBehaviorSchema),
    discography: v.optional(ArtistDiscographySchema),
    bandcamp: v.optional(v.nullable(BandcampSignalsSchema)),
    _links: v.optional(LinksSchema),
  }),
);
export type ArtistDossier = v.InferOutput<typeof ArtistDossierSchema>;

export const LabelDossierSchema = named(
  'LabelDossier',
  v.object({
    cluster_id: v.number(),
    kind: v.literal('label'),
    slug: v.string(),
    name: v.string(),
    identity: v.object({
      name: v.string(),
      profile: nullableString,
      contact_info: nullableString,
      data_quality: nullableString,
      locators: v.array(LocatorSchema),
    }),
    roster: v.array(v.object({ cluster_id: v.number(), slug: nullableString, name: v.string(), masters: v.number() })),
    catalogue: v.object({
      counts: v.object({ masters: v.number() }),
      years: v.object({ first: nullableInt, last: nullableInt }),
      top_genres: v.array(CountSchema),
      top_styles: v.array(CountSchema),
      masters: v.array(v.object({ master_id: v.number(), title: v.string(), year: nullableInt, catno: nullableString })),
    }),
    parent: v.nullable(NamedRefSchema),
    sublabels: v.array(NamedRefSchema),
    bandcamp: v.nullable(v.object({ url: v.string() })),
    _links: v.optional(LinksSchema),
  }),
);
export type LabelDossier = v.InferOutput<typeof LabelDossierSchema>;

export const FestivalDossierSchema = named(
  'FestivalDossier',
  v.object({
    cluster_id: v.number(),
    kind: v.literal('festival'),
    slug: v.string(),
    name: v.string(),
    identity: v.object({ name: v.string(), country: nullableString, city: nullableString, url: nullableString, locators: v.array(LocatorSchema) }),
    editions: v.array(
      v.object({
        year: v.number(),
        starts_on: v.string(),
        lineup: v.array(v.object({ cluster_id: v.number(), slug: nullableString, name: v.string(), billing: v.string() })),
      }),
    ),
    genres: v.array(v.string()),
    _links: v.optional(LinksSchema),
  }),
);
export type FestivalDossier = v.InferOutput<typeof FestivalDossierSchema>;

export const BreakoutSchema = named(
  'Breakout',
  v.object({
    cluster_id: v.number(),
    slug: v.string(),
    name: v.string(),
    genre: nullableString,
    followers: v.number(),
    supporters: v.number(),
    growth: v.number(),
    baseline: v.number(),
    genre_baseline: v.number(),
    score: v.number(),
    _links: v.optional(LinksSchema),
  }),
);
export type Breakout = v.InferOutput<typeof BreakoutSchema>;

export const TastemakerSchema = named(
  'Tastemaker',
  v.object({
    cluster_id: v.number(),
    kind: v.picklist(['label', 'festival']),
    slug: v.string(),
    name: v.string(),
    picks: v.number(),
    hits: v.number(),
    hit_rate: v.number(),
    median_lead_days: v.nullable(v.number()),
    rank: v.number(),
    _links: v.optional(LinksSchema),
  }),
);
export type Tastemaker = v.InferOutput<typeof TastemakerSchema>;

export const OneToWatchSchema = named(
  'OneToWatch',
  v.object({
    cluster_id: v.number(),
    slug: v.string(),
    name: v.string(),
    genre: nullableString,
    picked_by: v.array(
      v.object({ cluster_id: v.number(), kind: v.picklist(['label', 'festival']), slug: v.string(), name: v.string(), picked_on: v.string() }),
    ),
    score: v.number(),
    followers: v.number(),
    growth: v.nullable(v.number()),
    _links: v.optional(LinksSchema),
  }),
);
export type OneToWatch = v.InferOutput<typeof OneToWatchSchema>;
