/**
 * Signals for an EXISTING catalogue (e.g. the real Discogs samples): Bandcamp series for the
 * artists that have masters and invented festivals with lineups, planted with the same
 * structure as the generated catalogue:
 *
 * - tastemaker labels are drawn from the catalogue's own labels with ≥ 3 picked artists; about
 *   three in four of their picked artists are then made to break out after the pick date;
 * - more random breakouts bring the breakout share to ≈ 3 %; ≈ 2 % are ones-to-watch;
 * - tastemaker festivals (invented) book breakouts at their last edition before the surge and
 *   ones-to-watch at their latest edition, 10–150 days before as_of.
 */
import type { BandcampRow, CatalogueData, FestivalRow, LineupBilling } from '@catalogue/core';
import { bandcampReleases, ordinaryGrowth, plannedGrowth } from './bandcamp.js';
import { dayOf, dayOfDate, dayOfYearStart, isoOf } from './dates.js';
import { bandcampHostOf, disambiguate, FESTIVAL_NAMES, nameAt, slugOf } from './names.js';
import { type Rng, rngFor } from './prng.js';
import { observationsFor, type Surge } from './series.js';
import { phaseOfBreakout, surgeFor } from './signal-plan.js';
import { DEFAULT_AS_OF, DEFAULT_SEED } from './sizes.js';
import { FESTIVAL_PLACES, GENRES, genreProfile } from './taxonomy.js';
import { OBSERVATION_WEEKS } from './world.js';

export interface SignalsOptions {
  seed?: number;
  asOf?: string;
}

/** 'YYYY-MM-DD' | 'YYYY-MM-00' | 'YYYY' → day number (missing parts → 01), as the pick rule reads them. */
function releasedDay(released: string | null, year: number | null): number | null {
  const match = released ? /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(released) : null;
  if (match) return dayOfDate(Number(match[1]), Math.max(1, Number(match[2] ?? 1)), Math.max(1, Number(match[3] ?? 1)));
  return year ? dayOfYearStart(year) : null;
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function topCounts(values: string[], n: number): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([v]) => v);
}

export function generateSignalsFor(data: CatalogueData, options: SignalsOptions = {}): { festivals: FestivalRow[]; bandcamp: BandcampRow[] } {
  const seed = (options.seed ?? DEFAULT_SEED) >>> 0;
  const asOfDay = dayOf(options.asOf ?? DEFAULT_AS_OF);
  const asOfYear = Number(isoOf(asOfDay).slice(0, 4));
  const rng = rngFor(seed, 'signals-for', data.artists.length);
  const observationDays = Array.from({ length: OBSERVATION_WEEKS }, (_, k) => asOfDay - 7 * (OBSERVATION_WEEKS - 1 - k));
  const observationDates = observationDays.map(isoOf);

  const artistsById = new Map(data.artists.map((a) => [a.discogs_id, a]));
  const labelIds = new Set(data.labels.map((l) => l.discogs_id));
  const releases = new Map(data.releases.map((r) => [r.release_id, r]));
  const mainByMaster = new Map(data.releases.filter((r) => r.is_main_release && r.master_id !== null).map((r) => [r.master_id, r]));

  // Genres/styles and master counts per artist; label picks (label → artist → earliest day).
  const genresOf = new Map<number, string[]>();
  const stylesOf = new Map<number, string[]>();
  const picks = new Map<number, Map<number, number>>();
  for (const master of data.masters) {
    const main = releases.get(master.main_release_id ?? -1) ?? mainByMaster.get(master.master_id);
    const day = main ? releasedDay(main.released, master.year) : null;
    for (const credit of master.artists) {
      if (!artistsById.has(credit.discogs_id)) continue;
      genresOf.set(credit.discogs_id, [...(genresOf.get(credit.discogs_id) ?? []), ...master.genres]);
      stylesOf.set(credit.discogs_id, [...(stylesOf.get(credit.discogs_id) ?? []), ...master.styles]);
      if (day === null || !main) continue;
      for (const label of main.labels) {
        if (label.discogs_id === null || !labelIds.has(label.discogs_id)) continue;
        const byArtist = picks.get(label.discogs_id) ?? new Map<number, number>();
        byArtist.set(credit.discogs_id, Math.min(byArtist.get(credit.discogs_id) ?? Infinity, day));
        picks.set(label.discogs_id, byArtist);
      }
    }
  }

  // Covered: artists with masters (by id), topped up with others so there is something to rank.
  const withMasters = [...genresOf.keys()].sort((a, b) => a - b).slice(0, 100_000);
  const covered = withMasters.length >= 10 ? withMasters : [...new Set([...withMasters, ...data.artists.map((a) => a.discogs_id)])].slice(0, 100_000);
  const coveredSet = new Set(covered);
  const mainGenre = (id: number) => genreProfile(topCounts(genresOf.get(id) ?? [], 1)[0] ?? '') ?? (GENRES[0] as (typeof GENRES)[number]);

  // Tastemaker labels and the breakouts they foresaw.
  const surges = new Map<number, Surge>();
  // Small labels (3–12 picked Bandcamp artists) make believable tastemakers; stop adding
  // labels once their picks would exceed twice the breakout share.
  const breakoutTarget = Math.max(3, Math.round(covered.length * 0.03));
  const coveredPicks = (label: number) => [...(picks.get(label) ?? new Map<number, number>())].filter(([a]) => coveredSet.has(a)).sort((a, b) => a[0] - b[0]);
  const eligibleLabels = [...picks.keys()].filter((id) => coveredPicks(id).length >= 3 && coveredPicks(id).length <= 12).sort((a, b) => a - b);
  const tastemakerLabels: number[] = [];
  let phaseIndex = 0;
  for (const label of shuffled(rng, eligibleLabels)) {
    const labelPicks = coveredPicks(label);
    if (tastemakerLabels.length >= 20 || surges.size + labelPicks.length > 2 * breakoutTarget) continue;
    tastemakerLabels.push(label);
    for (const [artist, day] of labelPicks) {
      if (surges.has(artist) || !rng.chance(0.75)) continue;
      const surge = surgeFor(phaseOfBreakout(phaseIndex), rngFor(seed, 'signals-for-surge', artist), asOfDay);
      if (surge.startDay <= day) continue; // picked too late to be foresight; leave it a miss
      surges.set(artist, surge);
      phaseIndex++;
    }
  }
  const others = shuffled(
    rng,
    covered.filter((a) => !surges.has(a)),
  );
  while (surges.size < breakoutTarget && others.length > 0) {
    const artist = others.pop() as number;
    surges.set(artist, surgeFor(phaseOfBreakout(phaseIndex++), rngFor(seed, 'signals-for-surge', artist), asOfDay));
  }
  const watch = others.slice(0, Math.max(3, Math.round(covered.length * 0.02)));

  // Festivals: invented, ids after any existing ones.
  const firstFestivalId = Math.max(0, ...data.festivals.map((f) => f.festival_id)) + 1;
  const festivalCount = Math.min(30, Math.max(3, Math.round(covered.length / 40)));
  const tastemakerCount = Math.max(2, Math.round(festivalCount * 0.2));
  const popular = [...artistsById.keys()].sort((a, b) => (genresOf.get(b)?.length ?? 0) - (genresOf.get(a)?.length ?? 0) || a - b);
  const usedNames = new Set<string>();
  const festivals: FestivalRow[] = [];
  const breakoutList = [...surges].sort((a, b) => a[0] - b[0]);
  for (let f = 0; f < festivalCount; f++) {
    const frng = rngFor(seed, 'signals-for-festival', f);
    const tastemaker = f < tastemakerCount;
    const date = isoOf(asOfDay - frng.int(10, 150));
    const [month, day] = tastemaker ? [Number(date.slice(5, 7)), Math.min(28, Number(date.slice(8, 10)))] : [frng.int(4, 9), frng.int(1, 28)];
    const startYear = asOfYear - (tastemaker ? frng.int(6, 14) : frng.int(1, 20));
    let name = nameAt(FESTIVAL_NAMES, frng.int(0, FESTIVAL_NAMES.capacity - 1));
    for (let copy = 2; usedNames.has(name); copy++) name = disambiguate(name.replace(/ \(\d+\)$/, ''), copy);
    usedNames.add(name);
    const [country, city] = frng.pick(FESTIVAL_PLACES);
    const editions: FestivalRow['editions'] = [];
    for (let year = startYear; year <= asOfYear; year++) {
      const startsOn = dayOfDate(year, month, day);
      if (startsOn > asOfDay) continue;
      const lineup: FestivalRow['editions'][number]['lineup'] = [];
      const booked = new Set<number>();
      const book = (artist: number, billing: LineupBilling) => {
        if (booked.has(artist)) return;
        booked.add(artist);
        lineup.push({ artist_discogs_id: artist, billing });
      };
      const size = frng.int(6, 16);
      for (let slot = 0; slot < size && popular.length > 0; slot++) {
        const artist = popular[Math.floor(popular.length * frng.next() ** 3)] as number;
        if (tastemaker && coveredSet.has(artist)) continue; // tastemakers' counted picks are planted
        book(artist, slot < 2 ? 'headliner' : slot < 6 ? 'main' : 'support');
      }
      editions.push({ year, starts_on: isoOf(startsOn), lineup });
    }
    festivals.push({
      festival_id: firstFestivalId + f,
      name,
      country,
      city,
      url: `https://www.${slugOf(name).replace(/-/g, '')}.com`,
      genres: [mainGenre(popular[f % Math.max(1, popular.length)] ?? 0).name],
      editions,
    });
  }
  const tastemakerFestivals = festivals.slice(0, tastemakerCount);
  breakoutList.forEach(([artist, surge], i) => {
    if (i % 5 >= 3) return;
    const festival = tastemakerFestivals[i % tastemakerFestivals.length];
    const edition = festival?.editions.filter((e) => dayOf(e.starts_on) < surge.startDay - 7).at(-1);
    edition?.lineup.push({ artist_discogs_id: artist, billing: 'support' });
  });
  watch.forEach((artist, i) => {
    const edition = tastemakerFestivals[i % tastemakerFestivals.length]?.editions.at(-1);
    if (edition && dayOf(edition.starts_on) > asOfDay - 180) edition.lineup.push({ artist_discogs_id: artist, billing: 'support' });
  });

  // Bandcamp rows.
  const watchSet = new Set(watch);
  const hosts = new Set<string>();
  const bandcamp: BandcampRow[] = covered.map((artistId) => {
    const artist = artistsById.get(artistId);
    const brng = rngFor(seed, 'signals-for-bandcamp', artistId);
    const genre = mainGenre(artistId);
    const surge = surges.get(artistId) ?? null;
    const growth = surge || watchSet.has(artistId) ? plannedGrowth(brng, genre, brng.int(120, 900), surge, !surge) : ordinaryGrowth(brng, genre);
    let host = bandcampHostOf(artist?.name ?? `artist${artistId}`);
    if (hosts.has(host)) host = `${host}${artistId}`;
    hosts.add(host);
    const url = `https://${host}.bandcamp.com`;
    const styles = topCounts(stylesOf.get(artistId) ?? [], 3);
    return {
      artist_discogs_id: artistId,
      url,
      observations: observationsFor(brng, growth, observationDays, observationDates),
      releases: bandcampReleases({
        rng: brng,
        url,
        styles: styles.length ? styles : genre.styles.slice(0, 2),
        genre: genre.name,
        fromDay: dayOfYearStart(2008),
        toDay: asOfDay,
        pinnedDay: surge ? surge.startDay : null,
      }),
    };
  });
  return { festivals, bandcamp };
}
