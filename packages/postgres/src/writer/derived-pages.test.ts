/** The worker's side of finish()'s one pass (issue 13): counts per genre give core's mainGenreOf. */
import { mainGenreOf } from '@catalogue/core/catalogue';
import { describe, expect, it } from 'vitest';
import { mainGenreOfCounts } from './derived-pages.js';

describe('mainGenreOfCounts', () => {
  it("picks what core's mainGenreOf picks from the masters' genre lists, ties included, in any order", () => {
    const genres = ['Rock', 'Electronic', 'Jazz', 'Funk / Soul', 'electronic', 'Ωmega'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 500; round++) {
      const masters = Array.from({ length: Math.floor(next() * 8) }, () => ({
        genres: Array.from({ length: Math.floor(next() * 4) }, () => genres[Math.floor(next() * genres.length)] as string),
      }));
      // What the page query counts: each master once per distinct genre.
      const counts = new Map<string, number>();
      for (const master of masters) for (const genre of new Set(master.genres)) counts.set(genre, (counts.get(genre) ?? 0) + 1);
      const pairs = [...counts].sort(() => next() - 0.5);
      expect(mainGenreOfCounts(pairs)).toBe(mainGenreOf(masters));
    }
    expect(mainGenreOfCounts(null)).toBeNull();
  });
});
