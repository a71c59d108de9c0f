/**
 * Typo tolerance's rules (typos.ts) and its scoring level (search.ts, "Typos"): Meilisearch's
 * thresholds, a transposition as one edit, bounded work, and exact words before corrected ones.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pointsOf, searchEntry, searchTextOf, withCorrections } from './search.js';
import { tokensOf } from './text.js';
import {
  allowedTypos,
  correctablePositions,
  correctedOf,
  correctionsAffordable,
  correctionsAmong,
  editDistance,
  MAX_CORRECTED_DOCUMENTS,
  MAX_CORRECTED_WORDS,
  MAX_CORRECTIONS,
  memoryCandidatesOf,
  nearVariantsOf,
  oneEditVariantsOf,
  trigramSimilarity,
  trigramsOf,
} from './typos.js';

/** Plain dynamic-programming OSA, the reference editDistance must equal within its bound. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

describe('typo rules', () => {
  it('allows no edit under 5 characters, 1 from 5, 2 from 9', () => {
    expect([4, 5, 8, 9, 20].map(allowedTypos)).toEqual([0, 1, 1, 2, 2]);
  });

  it('counts a transposition as one edit (optimal string alignment)', () => {
    expect(editDistance('hosue', 'house', 2)).toBe(1);
    expect(editDistance('persuadr', 'persuader', 2)).toBe(1);
    expect(editDistance('theodorkais', 'theodorakis', 2)).toBe(1);
    expect(editDistance('theodrakiss', 'theodorakis', 2)).toBe(2);
    expect(editDistance('ca', 'abc', 3)).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
  });

  it('editDistance equals the plain OSA distance, capped at max + 1', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
      }),
      { numRuns: 2_000 },
    );
  });

  it('corrects at most MAX_CORRECTED_WORDS words, of 5 to 40 characters', () => {
    const tokens = ['abc', 'abcd', 'x'.repeat(41), ...Array.from({ length: 100 }, (_, i) => `word${i}x`)];
    const positions = correctablePositions(tokens);
    expect(positions).toHaveLength(MAX_CORRECTED_WORDS);
    expect(positions[0]).toBe(3);
  });

  it('keeps corrections within the edits allowed, fewest edits, then most documents, then by word', () => {
    const candidates = [
      { word: 'persuaders', documents: 50 },
      { word: 'persuader', documents: 3 },
      { word: 'persuade', documents: 9 },
      { word: 'persuadr', documents: 100 },
      { word: 'pursuader', documents: 1 },
      { word: 'persuader', documents: 3 },
    ];
    // 8 letters: one edit; the word itself is no correction, a duplicate counts once.
    expect(correctionsAmong('persuadr', candidates)).toEqual(['persuade', 'persuader']);
    // 9 letters: two edits; one edit first (the more documents first), then two.
    expect(correctionsAmong('persuadrs', candidates)).toEqual(['persuadr', 'persuaders', 'persuade']);
    expect(correctionsAmong('abcd', [{ word: 'abce', documents: 1 }])).toEqual([]);
    const many = Array.from({ length: 10 }, (_, i) => ({ word: `house${i}`, documents: i }));
    expect(correctionsAmong('housex', many)).toHaveLength(MAX_CORRECTIONS);
  });

  it('enumerates the words one edit away over [a-z0-9]: every one, and only those', () => {
    const variants = oneEditVariantsOf('hosue');
    expect(variants).toContain('house');
    expect(variants).toContain('hosu');
    expect(variants).toContain('hosue9');
    expect(variants).toContain('hqsue');
    expect(variants).not.toContain('hosue');
    expect(new Set(variants).size).toBe(variants.length);
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(oneEditVariantsOf(a).includes(b)).toBe(osa(a, b) === 1);
      }),
      { numRuns: 2_000 },
    );
  });

  it('finds candidates by pg_trgm similarity, and by one transposition or deletion when trigrams miss them', () => {
    // pg_trgm: similarity('watsn', 'watson') = 4 / 9
    expect(trigramSimilarity(trigramsOf('watsn'), trigramsOf('watson'))).toBeCloseTo(4 / 9, 10);
    expect(trigramSimilarity(trigramsOf('hosue'), trigramsOf('house'))).toBeLessThan(0.3);
    expect(nearVariantsOf('hosue')).toContain('house');
    const vocabulary = new Map([
      ['house', 10],
      ['watson', 2],
      ['horse', 1],
    ]);
    const trigrams = new Map([...vocabulary.keys()].map((word) => [word, trigramsOf(word)]));
    expect(correctionsAmong('hosue', memoryCandidatesOf('hosue', vocabulary, trigrams))).toEqual(['house']);
    expect(correctionsAmong('watsn', memoryCandidatesOf('watsn', vocabulary, trigrams))).toEqual(['watson']);
    // One edit allowed (5–8 characters): exactly the vocabulary words one edit away, however few trigrams they share.
    const oneEdit = memoryCandidatesOf('hoxse', vocabulary, trigrams);
    expect(oneEdit).toHaveLength(2);
    expect(oneEdit).toEqual(
      expect.arrayContaining([
        { word: 'house', documents: 10 },
        { word: 'horse', documents: 1 },
      ]),
    );
    expect(correctionsAmong('hoxse', oneEdit)).toEqual(['house', 'horse']);
    // Two (9+): trigram-similar words and the near variants, as before.
    const long = new Map([
      ['theodorakis', 3],
      ['theodora', 1],
    ]);
    const longTrigrams = new Map([...long.keys()].map((word) => [word, trigramsOf(word)]));
    expect(correctionsAmong('theodrakiss', memoryCandidatesOf('theodrakiss', long, longTrigrams))).toEqual(['theodorakis']);
  });

  it('reports the correction the first hit needing one used, a whole word before a prefix', () => {
    const hits = [
      { name: 'Persuade Me', artists: [], genres: [], styles: [] },
      { name: 'Les Années', artists: ['The Persuader'], genres: [], styles: [] },
    ];
    const corrections = new Map([
      [0, ['anne', 'annees']],
      [1, ['persuader']],
    ]);
    expect(correctedOf(['annes', 'persuadr'], corrections, hits, tokensOf)).toEqual({ annes: 'annees', persuadr: 'persuader' });
    expect(correctedOf(['annes'], new Map(), hits, tokensOf)).toEqual({});
  });
});

describe('the cost bound of corrections', () => {
  const documents = new Map([
    ['persuader', 12],
    ['watson', 40],
    ['moments', 9_990],
    ['momentum', 20],
  ]);
  const documentsOf = (word: string) => documents.get(word) ?? 0;

  it('keeps the corrections of a query of several words whose variants hold at most MAX_CORRECTED_DOCUMENTS documents, summed over every corrected word', () => {
    expect(MAX_CORRECTED_DOCUMENTS).toBe(10_000);
    const two = ['persuadr', 'stockholm'];
    expect(correctionsAffordable(two, new Map([[0, ['persuader']]]), documentsOf)).toBe(true);
    expect(correctionsAffordable(two, new Map([[0, ['moments', 'momentum']]]), documentsOf)).toBe(false);
    expect(correctionsAffordable(two, new Map([[0, ['moments']]]), documentsOf)).toBe(true);
    expect(
      correctionsAffordable(
        two,
        new Map([
          [0, ['moments']],
          [1, ['watson']],
        ]),
        documentsOf,
      ),
    ).toBe(false);
    expect(correctionsAffordable(two, new Map([[0, ['watson']]]), documentsOf, 40)).toBe(true);
    expect(correctionsAffordable(two, new Map([[0, ['watson']]]), documentsOf, 39)).toBe(false);
    expect(correctionsAffordable(two, new Map(), documentsOf, 0)).toBe(true);
  });

  it('keeps a one-word query’s corrections whatever they hold (it has a ranked path)', () => {
    expect(correctionsAffordable(['momnets'], new Map([[0, ['moments', 'momentum']]]), documentsOf)).toBe(true);
    expect(correctionsAffordable(['watsn'], new Map([[0, ['watson']]]), documentsOf, 0)).toBe(true);
  });
});

describe('typo scoring', () => {
  const entry = (name: string, size = 0) =>
    searchEntry({ type: 'artist', id: name.length, slug: null, name, year: null, artists: [], genres: [], styles: [] }, name, [], [], size, null);

  it('ranks exact words above corrected ones, fewer corrections above more, before fields and popularity', () => {
    const text = withCorrections(
      searchTextOf('jesper dahlbeck'),
      new Map([
        [0, ['jasper']],
        [1, ['dahlback']],
      ]),
    );
    const exactBoth = pointsOf(entry('Jesper Dahlbeck'), text, 'all') as number;
    const oneCorrection = pointsOf(entry('Jesper Dahlbäck', 1_000_000), text, 'all') as number;
    const twoCorrections = pointsOf(entry('Jasper Dahlback', 1_000_000), text, 'all') as number;
    expect(exactBoth).toBeGreaterThan(oneCorrection + 1);
    expect(oneCorrection).toBeGreaterThan(twoCorrections + 1);
    expect(pointsOf(entry('Jesper Binzer'), text, 'all')).toBeNull();
    // In the "some" fallback, more words matched still come first, corrected or not.
    const some = withCorrections(searchTextOf('persuadr stockholm zzzz'), new Map([[0, ['persuader']]]));
    expect(pointsOf(entry('The Persuader Stockholm'), some, 'some') as number).toBeGreaterThan(pointsOf(entry('Stockholm'), some, 'some') as number);
    expect(pointsOf(entry('Stockholm'), some, 'some') as number).toBeGreaterThan(pointsOf(entry('The Persuader'), some, 'some') as number);
  });

  it('reads each corrected word by its chosen variant (the first it holds): field and whole word from that one alone', () => {
    const text = withCorrections(searchTextOf('hoxse'), new Map([[0, ['house', 'horse']]]));
    const master = (name: string, styles: string[]) =>
      searchEntry({ type: 'master', id: 1, slug: null, name, year: null, artists: [], genres: [], styles }, name, [], styles, 0, null);
    // House is held (a style, whole): chosen; the title's Horses does not make it primary.
    const styled = pointsOf(master('Horses', ['House']), text, 'all') as number;
    expect(styled).toBe((((1 * 128 + 0) * 128 + 0) * 4 + 0) * 2 + 1);
    // Horse whole in the title, house nowhere: chosen horse, primary and whole.
    expect(pointsOf(master('Horse Power', []), text, 'all')).toBe((((1 * 128 + 0) * 128 + 1) * 4 + 0) * 2 + 1);
    // Housework: house is chosen (a prefix), not whole, though horse is whole in a style.
    expect(pointsOf(master('Housework', ['Horse']), text, 'all')).toBe((((1 * 128 + 0) * 128 + 1) * 4 + 0) * 2 + 0);
  });

  it('scores the phrase and whole words of the corrected query', () => {
    const text = withCorrections(searchTextOf('persuadr'), new Map([[0, ['persuader']]]));
    const whole = pointsOf(entry('Persuader'), text, 'all') as number;
    const prefix = pointsOf(entry('Persuaders Inc'), text, 'all') as number;
    expect(whole - prefix).toBe(2 * 2 + 1); // phrase 2 (the whole name), whole 1
  });
});
