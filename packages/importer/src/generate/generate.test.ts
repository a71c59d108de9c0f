import type { BandcampObservation, CatalogueData } from '@catalogue/core';
import { describe, expect, it } from 'vitest';
import { generateCatalogue } from './generate.js';
import { DEFAULT_AS_OF } from './sizes.js';
import { streamCatalogue } from './stream.js';

/** FNV-1a over the JSON: enough to tell two outputs apart, and pure. */
function hashOf(data: unknown): string {
  const text = JSON.stringify(data);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${(h >>> 0).toString(16)}:${text.length}`;
}

const DAY = 86_400_000;
const dayOf = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY;
const metric = (o: BandcampObservation): number => o.followers + 2 * o.supporters;
/** m(t): the last observation on or before t (the catalogue's definition). */
function metricAt(series: BandcampObservation[], day: number): number | null {
  let value: number | null = null;
  for (const o of series) if (dayOf(o.date) <= day) value = metric(o);
  return value;
}
/** First weekly date where the 90-day growth doubles from a base ≥ 50 and beats 2× its own previous 90 days. */
function firstBreakoutDay(series: BandcampObservation[]): number | null {
  for (const o of series) {
    const t = dayOf(o.date);
    const [now, then, prev] = [metric(o), metricAt(series, t - 90), metricAt(series, t - 180)];
    if (then === null || prev === null || then < 50) continue;
    const g = Math.log((now + 1) / (then + 1));
    const b = Math.log((then + 1) / (prev + 1));
    if (g >= Math.log(2) && g >= 2 * Math.max(b, Math.log(1.05))) return t;
  }
  return null;
}

const demo: CatalogueData = generateCatalogue();

describe('generateCatalogue determinism', () => {
  it('gives byte-identical output for the same seed and different output for another seed', () => {
    const small = { scale: { artists: 300, labels: 60, festivals: 8, masters: 900, bandcampArtists: 120 } };
    expect(hashOf(generateCatalogue({ ...small, seed: 7 }))).toBe(hashOf(generateCatalogue({ ...small, seed: 7 })));
    expect(hashOf(generateCatalogue({ ...small, seed: 7 }))).not.toBe(hashOf(generateCatalogue({ ...small, seed: 8 })));
    expect(hashOf(generateCatalogue())).toBe(hashOf(demo));
  });

  it('streams the same rows generateCatalogue returns', () => {
    const options = { seed: 3, scale: { artists: 200, labels: 40, festivals: 6, masters: 500, bandcampArtists: 80 } };
    const stream = streamCatalogue(options);
    const streamed: CatalogueData = {
      artists: [...stream.artists()],
      labels: [...stream.labels()],
      masters: [...stream.masters()],
      releases: [...stream.releases()],
      festivals: [...stream.festivals()],
      bandcamp: [...stream.bandcamp()],
    };
    expect(hashOf(streamed)).toBe(hashOf(generateCatalogue(options)));
  });
});

describe('demo catalogue shape', () => {
  it('has the demo sizes', () => {
    expect(demo.artists).toHaveLength(1_500);
    expect(demo.labels).toHaveLength(250);
    expect(demo.festivals).toHaveLength(30);
    expect(demo.masters).toHaveLength(6_000);
    expect(demo.bandcamp).toHaveLength(500);
    expect(demo.releases.length).toBeGreaterThan(6_000);
  });

  it('keeps referential integrity', () => {
    const artists = new Set(demo.artists.map((a) => a.discogs_id));
    const labels = new Set(demo.labels.map((l) => l.discogs_id));
    const masters = new Map(demo.masters.map((m) => [m.master_id, m]));
    const releases = new Map(demo.releases.map((r) => [r.release_id, r]));
    expect(artists.size).toBe(demo.artists.length);
    expect(masters.size).toBe(demo.masters.length);
    expect(releases.size).toBe(demo.releases.length);
    for (const m of demo.masters) {
      for (const c of m.artists) expect(artists.has(c.discogs_id)).toBe(true);
      const main = releases.get(m.main_release_id ?? -1);
      expect(main?.is_main_release).toBe(true);
      expect(main?.master_id).toBe(m.master_id);
      expect(m.year).toBe(Number(main?.released?.slice(0, 4)));
    }
    for (const r of demo.releases) {
      expect(masters.has(r.master_id ?? -1)).toBe(true);
      for (const l of r.labels) expect(labels.has(l.discogs_id ?? -1)).toBe(true);
      for (const c of [...r.artists, ...r.extra_artists]) expect(artists.has(c.discogs_id)).toBe(true);
    }
    for (const a of demo.artists) {
      for (const ref of [...a.members, ...a.groups, ...a.aliases]) expect(artists.has(ref.discogs_id ?? -1)).toBe(true);
      for (const m of a.members) expect(demo.artists[(m.discogs_id ?? 0) - 1]?.groups.map((g) => g.discogs_id)).toContain(a.discogs_id);
    }
    for (const f of demo.festivals) for (const e of f.editions) for (const l of e.lineup) expect(artists.has(l.artist_discogs_id)).toBe(true);
    for (const b of demo.bandcamp) expect(artists.has(b.artist_discogs_id)).toBe(true);
    expect(new Set(demo.bandcamp.map((b) => b.url)).size).toBe(demo.bandcamp.length);
  });

  it('respects id, date and series constraints', () => {
    const asOf = dayOf(DEFAULT_AS_OF);
    for (const a of demo.artists) {
      expect(a.discogs_id).toBeGreaterThanOrEqual(1);
      if (a.mbid) expect(a.mbid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      if (a.spotify_id) expect(a.spotify_id).toMatch(/^[0-9A-Za-z]{22}$/);
    }
    for (const m of demo.masters) {
      expect(m.master_id).toBeGreaterThanOrEqual(1);
      expect(m.master_id).toBeLessThanOrEqual(2_000_000_000);
      expect(m.year).toBeGreaterThanOrEqual(1940);
      expect(m.year).toBeLessThanOrEqual(2026);
    }
    for (const r of demo.releases) {
      expect(r.release_id).toBeLessThanOrEqual(2_000_000_000);
      expect(r.released).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(dayOf(r.released ?? '')).toBeLessThanOrEqual(asOf);
    }
    for (const b of demo.bandcamp) {
      expect(b.url).toMatch(/^https:\/\/[a-z0-9]+\.bandcamp\.com$/);
      expect(b.observations).toHaveLength(52);
      expect(b.observations.at(-1)?.date).toBe(DEFAULT_AS_OF);
      const problems: string[] = [];
      for (let k = 1; k < b.observations.length; k++) {
        const [prev, cur] = [b.observations[k - 1] as BandcampObservation, b.observations[k] as BandcampObservation];
        if (dayOf(cur.date) - dayOf(prev.date) !== 7) problems.push(`${b.url} gap at ${cur.date}`);
        if (cur.followers < prev.followers || cur.supporters < prev.supporters) problems.push(`${b.url} decreases at ${cur.date}`);
      }
      expect(problems).toEqual([]);
      for (const r of b.releases) expect(r.url.startsWith(`${b.url}/album/`)).toBe(true);
    }
    for (const f of demo.festivals) for (const e of f.editions) expect(dayOf(e.starts_on)).toBeLessThanOrEqual(asOf);
  });

  it('uses Discogs genres and repeats a few names Discogs-style', () => {
    const genres = new Set(demo.masters.flatMap((m) => m.genres));
    for (const g of genres)
      expect([
        'Blues',
        'Brass & Military',
        "Children's",
        'Classical',
        'Electronic',
        'Folk, World, & Country',
        'Funk / Soul',
        'Hip Hop',
        'Jazz',
        'Latin',
        'Non-Music',
        'Pop',
        'Reggae',
        'Rock',
        'Stage & Screen',
      ]).toContain(g);
    expect(genres.size).toBeGreaterThanOrEqual(10);
    const repeated = demo.artists.filter((a) => / \(\d+\)$/.test(a.name));
    expect(repeated.length).toBeGreaterThan(0);
    expect(repeated.length).toBeLessThan(demo.artists.length * 0.1);
    expect(demo.artists.some((a) => a.members.length > 0)).toBe(true);
    expect(demo.artists.some((a) => a.aliases.length > 0)).toBe(true);
  });

  it('skews master counts Zipf-like', () => {
    const counts = new Map<number, number>();
    for (const m of demo.masters) for (const c of m.artists) counts.set(c.discogs_id, (counts.get(c.discogs_id) ?? 0) + 1);
    const sorted = demo.artists.map((a) => counts.get(a.discogs_id) ?? 0).sort((a, b) => b - a);
    const top = sorted.slice(0, Math.ceil(sorted.length / 100));
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    const topMean = top.reduce((s, n) => s + n, 0) / top.length;
    expect(topMean).toBeGreaterThan(10 * Math.max(1, median));
  });
});

describe('planted signal structure', () => {
  const asOf = dayOf(DEFAULT_AS_OF);
  const byArtist = new Map(demo.bandcamp.map((b) => [b.artist_discogs_id, b.observations]));

  it('has artists whose 30-day growth is ≥ 1.25× and at least twice their previous window', () => {
    const breaking = demo.bandcamp.filter((b) => {
      const [now, then, prev] = [metricAt(b.observations, asOf), metricAt(b.observations, asOf - 30), metricAt(b.observations, asOf - 60)];
      if (now === null || then === null || prev === null || then < 50) return false;
      const g = Math.log((now + 1) / (then + 1));
      const base = Math.log((then + 1) / (prev + 1));
      return g >= Math.log(1.25) && g >= 2 * Math.max(base, Math.log(1.05));
    });
    expect(breaking.length).toBeGreaterThanOrEqual(3);
    // A planted minority, not the norm.
    expect(breaking.length).toBeLessThan(demo.bandcamp.length * 0.1);
  });

  it('has label picks that precede the artist’s first breakout, and picks within 180 days of as_of', () => {
    const releases = new Map(demo.releases.map((r) => [r.release_id, r]));
    const picks = new Map<string, number>(); // label:artist → earliest day
    for (const m of demo.masters) {
      const main = releases.get(m.main_release_id ?? -1);
      if (!main?.released) continue;
      for (const l of main.labels) {
        for (const a of m.artists) {
          const key = `${l.discogs_id}:${a.discogs_id}`;
          picks.set(key, Math.min(picks.get(key) ?? Infinity, dayOf(main.released)));
        }
      }
    }
    const breakoutDay = new Map<number, number>();
    for (const [artist, series] of byArtist) {
      const day = firstBreakoutDay(series);
      if (day !== null) breakoutDay.set(artist, day);
    }
    expect(breakoutDay.size).toBeGreaterThanOrEqual(5);
    // Some breakouts happened months ago (the history), not only now.
    expect([...breakoutDay.values()].some((d) => d < asOf - 90)).toBe(true);

    const hitsByLabel = new Map<number, { picks: number; hits: number }>();
    let recentUnbrokenPicks = 0;
    for (const [key, day] of picks) {
      const [label, artist] = key.split(':').map(Number) as [number, number];
      if (!byArtist.has(artist) || day > asOf) continue;
      const stats = hitsByLabel.get(label) ?? { picks: 0, hits: 0 };
      stats.picks++;
      const broke = breakoutDay.get(artist);
      if (broke !== undefined && broke >= day) stats.hits++;
      hitsByLabel.set(label, stats);
      if (day > asOf - 180 && broke === undefined) recentUnbrokenPicks++;
    }
    const tastemakers = [...hitsByLabel.values()].filter((s) => s.picks >= 3 && s.hits / s.picks >= 0.5);
    expect(tastemakers.length).toBeGreaterThanOrEqual(2);
    expect(recentUnbrokenPicks).toBeGreaterThan(0);

    // Festivals: some lineups in the last 180 days, and some bookings before a breakout.
    const recentEditions = demo.festivals.flatMap((f) => f.editions).filter((e) => dayOf(e.starts_on) > asOf - 180);
    expect(recentEditions.length).toBeGreaterThan(0);
    const earlyBookings = demo.festivals
      .flatMap((f) => f.editions.flatMap((e) => e.lineup.map((l) => ({ day: dayOf(e.starts_on), artist: l.artist_discogs_id }))))
      .filter(({ day, artist }) => (breakoutDay.get(artist) ?? -Infinity) >= day);
    expect(earlyBookings.length).toBeGreaterThan(0);
  });
});
