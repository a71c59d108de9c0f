import * as v from 'valibot';

/** 'YYYY-MM-DD' that is a real calendar date. */
const IsoDate = v.pipe(
  v.string(),
  v.isoDate('must be a date YYYY-MM-DD'),
  // isoDate checks the shape only: 2026-06-31 passes it.
  v.check(isCalendarDate, 'must be a real calendar date'),
);
const DiscogsId = v.pipe(v.number(), v.integer(), v.minValue(1));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const NonBlank = v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty'));
const Url = v.pipe(v.string(), v.url('must be a URL'));

/** One line of the Bandcamp feed: one artist on one observation date. */
export const BandcampLineSchema = v.strictObject({
  artist_discogs_id: DiscogsId,
  url: Url,
  date: IsoDate,
  followers: Count,
  supporters: Count,
  releases: v.optional(
    v.array(
      v.strictObject({
        title: NonBlank,
        url: Url,
        released: v.optional(v.nullable(IsoDate), null),
        tags: v.optional(v.array(NonBlank), []),
      }),
    ),
    [],
  ),
});
export type BandcampLine = v.InferOutput<typeof BandcampLineSchema>;

/** One line of the festivals feed: one edition of one festival with its lineup. */
export const FestivalLineSchema = v.strictObject({
  festival_id: DiscogsId,
  name: NonBlank,
  country: v.optional(v.nullable(NonBlank), null),
  city: v.optional(v.nullable(NonBlank), null),
  url: v.optional(v.nullable(Url), null),
  genres: v.optional(v.array(NonBlank), []),
  edition: v.pipe(
    v.strictObject({
      year: v.pipe(v.number(), v.integer(), v.minValue(1900), v.maxValue(2200)),
      starts_on: IsoDate,
      lineup: v.array(
        v.strictObject({
          artist_discogs_id: DiscogsId,
          billing: v.picklist(['headliner', 'main', 'support'], 'must be headliner, main or support'),
        }),
      ),
    }),
    v.check((edition) => edition.starts_on.startsWith(`${edition.year}-`), 'starts_on must fall in the edition year'),
  ),
});
export type FestivalLine = v.InferOutput<typeof FestivalLineSchema>;

function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}
