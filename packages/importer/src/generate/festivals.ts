/**
 * One FestivalRow with its yearly editions. Lineups mix the planted bookings with popular
 * artists (headliners from the head of the popularity curve). Tastemaker festivals fill their
 * other slots only with artists without Bandcamp, so every counted pick of theirs is planted.
 */
import type { FestivalRow, LineupBilling } from '@catalogue/core';
import { isoOf } from './dates.js';
import { editionsOf, festivalTraits } from './festival-traits.js';
import { slugOf } from './names.js';
import { rngFor } from './prng.js';
import { isCovered, popularArtist, type World } from './world.js';

export function festivalAt(world: World, id: number): FestivalRow {
  const traits = festivalTraits(world, id);
  const planted = world.plan.bookings.get(id);
  const editions = editionsOf(world, traits).map(({ year, day }) => {
    const rng = rngFor(world.seed, 'lineup', id * 10_000 + year);
    const lineup: Array<{ artist_discogs_id: number; billing: LineupBilling }> = [];
    const booked = new Set<number>();
    const book = (artistId: number, billing: LineupBilling): void => {
      if (booked.has(artistId)) return;
      booked.add(artistId);
      lineup.push({ artist_discogs_id: artistId, billing });
    };
    const size = rng.int(8, 24);
    for (let slot = 0; slot < size; slot++) {
      const billing: LineupBilling = slot < 2 ? 'headliner' : slot < 7 ? 'main' : 'support';
      // Headliners come from the head of the popularity curve.
      const u = billing === 'headliner' ? rng.next() * 0.3 : rng.next();
      let artistId = popularArtist(world, u);
      for (let tries = 0; tries < 16 && traits.tastemaker && isCovered(world, artistId); tries++) artistId = popularArtist(world, rng.next());
      if (traits.tastemaker && isCovered(world, artistId)) continue;
      book(artistId, billing);
    }
    for (const booking of planted?.get(year) ?? []) book(booking.artistId, booking.billing);
    return { year, starts_on: isoOf(day), lineup };
  });
  return {
    festival_id: id,
    name: traits.name,
    country: traits.country,
    city: traits.city,
    url: `https://www.${slugOf(traits.name.replace(/ \(\d+\)$/, '')).replace(/-/g, '')}.com`,
    genres: traits.genres,
    editions,
  };
}
