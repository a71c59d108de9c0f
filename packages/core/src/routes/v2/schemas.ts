/** Response shapes that differ in v2: the discography facet carries master and release detail. */
import * as v from 'valibot';
import { named } from '../../schemas/named.js';
import { ArtistDossierSchema, DiscographyMasterSchema, MasterSchema, ReleaseSchema } from '../../schemas/records.js';

export const ARTIST_FIELDS = ['identity', 'behavior', 'discography', 'bandcamp'] as const;
export type ArtistField = (typeof ARTIST_FIELDS)[number];

/** One master of the artist's discography, with what v1 served from /masters/{id} and /dossier/master/{id}. */
export const V2DiscographyMasterSchema = named(
  'V2DiscographyMaster',
  v.object({
    ...DiscographyMasterSchema.entries,
    master: MasterSchema,
    releases: v.array(ReleaseSchema),
    release_count: v.number(),
  }),
);

export const V2ArtistDiscographySchema = named(
  'V2ArtistDiscography',
  v.object({
    counts: v.object({ masters: v.number(), main: v.number(), appearances: v.number() }),
    masters: v.array(V2DiscographyMasterSchema),
  }),
);

export const V2ArtistDossierSchema = named(
  'V2ArtistDossier',
  v.object({
    ...ArtistDossierSchema.entries,
    discography: v.optional(V2ArtistDiscographySchema),
  }),
);
