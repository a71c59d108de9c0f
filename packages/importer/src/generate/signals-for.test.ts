import type { BandcampObservation } from '@catalogue/core';
import { describe, expect, it } from 'vitest';
import { generateCatalogue } from './generate.js';
import { generateSignalsFor } from './signals-for.js';

const DAY = 86_400_000;
const dayOf = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY;
const metric = (o: BandcampObservation): number => o.followers + 2 * o.supporters;
const metricAt = (s: BandcampObservation[], day: number): number | null =>
  s
    .filter((o) => dayOf(o.date) <= day)
    .map(metric)
    .at(-1) ?? null;
function firstBreakoutDay(series: BandcampObservation[]): number | null {
  for (const o of series) {
    const t = dayOf(o.date);
    const [then, prev] = [metricAt(series, t - 90), metricAt(series, t - 180)];
    if (then === null || prev === null || then < 50) continue;
    const g = Math.log((metric(o) + 1) / (then + 1));
    if (g >= Math.log(2) && g >= 2 * Math.max(Math.log((then + 1) / (prev + 1)), Math.log(1.05))) return t;
  }
  return null;
}

describe('generateSignalsFor', () => {
  const base = generateCatalogue({ seed: 11, scale: { artists: 400, labels: 40, festivals: 1, masters: 2_000, bandcampArtists: 1 } });
  const catalogue = { ...base, festivals: [], bandcamp: [] };
  const signals = generateSignalsFor(catalogue, { seed: 5 });

  it('is deterministic', () => {
    expect(JSON.stringify(generateSignalsFor(catalogue, { seed: 5 }))).toBe(JSON.stringify(signals));
    expect(JSON.stringify(generateSignalsFor(catalogue, { seed: 6 }))).not.toBe(JSON.stringify(signals));
  });

  it('only references the catalogue’s artists and writes well-formed series', () => {
    const artists = new Set(catalogue.artists.map((a) => a.discogs_id));
    const problems: string[] = [];
    for (const b of signals.bandcamp) {
      if (!artists.has(b.artist_discogs_id)) problems.push(`bandcamp ${b.artist_discogs_id}`);
      if (b.observations.length !== 52 || b.observations.at(-1)?.date !== '2026-06-29') problems.push(`series ${b.artist_discogs_id}`);
      b.observations.forEach((o, k) => {
        const prev = b.observations[k - 1];
        if (prev && (o.followers < prev.followers || o.supporters < prev.supporters)) problems.push(`decreasing ${b.artist_discogs_id}`);
      });
    }
    for (const f of signals.festivals)
      for (const e of f.editions) for (const l of e.lineup) if (!artists.has(l.artist_discogs_id)) problems.push(`lineup ${l.artist_discogs_id}`);
    expect(problems).toEqual([]);
    expect(new Set(signals.bandcamp.map((b) => b.url)).size).toBe(signals.bandcamp.length);
  });

  it('plants breakouts that the catalogue’s own labels and invented festivals picked earlier', () => {
    const asOf = dayOf('2026-06-29');
    const broke = new Map(signals.bandcamp.map((b) => [b.artist_discogs_id, firstBreakoutDay(b.observations)]));
    const brokenOut = [...broke.values()].filter((d) => d !== null).length;
    expect(brokenOut).toBeGreaterThanOrEqual(3);
    expect(brokenOut).toBeLessThan(signals.bandcamp.length * 0.2);

    const releases = new Map(catalogue.releases.map((r) => [r.release_id, r]));
    const labelHits = catalogue.masters.some((m) => {
      const main = releases.get(m.main_release_id ?? -1);
      return m.artists.some((a) => {
        const day = broke.get(a.discogs_id);
        return day != null && main?.released != null && dayOf(main.released) <= day;
      });
    });
    expect(labelHits).toBe(true);

    const bookings = signals.festivals.flatMap((f) => f.editions.flatMap((e) => e.lineup.map((l) => ({ day: dayOf(e.starts_on), id: l.artist_discogs_id }))));
    expect(bookings.some(({ day, id }) => (broke.get(id) ?? -Infinity) >= day)).toBe(true);
    expect(bookings.some(({ day, id }) => day > asOf - 180 && broke.has(id) && broke.get(id) === null)).toBe(true);
  });
});
