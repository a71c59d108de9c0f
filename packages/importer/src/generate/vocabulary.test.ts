import { createHash } from 'node:crypto';
import { tokensOf } from '@catalogue/core/catalogue';
import { describe, expect, it } from 'vitest';
import { generateCatalogue } from './generate.js';
import { streamCatalogue } from './stream.js';
import { vocabularyWord, ZIPF_VOCABULARY_SIZE } from './vocabulary.js';

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** Documents each title word is in, most frequent first. */
function wordCounts(titles: Iterable<string>): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const title of titles) for (const token of new Set(tokensOf(title))) counts.set(token, (counts.get(token) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

describe('title vocabularies (issue 14)', () => {
  it('leaves the demo catalogue byte-for-byte as it was before the Zipf vocabulary existed', () => {
    // Digests of generateCatalogue() taken on the code before vocabulary.ts: the demo, and the
    // tests that read its titles, must not change.
    const demo = generateCatalogue();
    expect(sha256(demo.masters.map((master) => master.title))).toBe('42734e715891d2ec55fdd21aa96304d91e4a06c573148efb33844818e9716c4e');
    expect(sha256(demo)).toBe('c8346870a28c924b87784f141a85432de38d49115e85635e0a25bbc954fd218c');
    expect(sha256(generateCatalogue({ titleVocabulary: 'demo' }))).toBe(sha256(demo));
  });

  it('spells nearly every rank as its own word', () => {
    // Syllables can join ambiguously ("b"+"ra" = "br"+"a"): a few ranks share a spelling, which only merges their counts.
    const words = new Set<string>();
    for (let rank = 0; rank < ZIPF_VOCABULARY_SIZE; rank += 1) words.add(vocabularyWord(rank).toLowerCase());
    expect(words.size).toBeGreaterThan(ZIPF_VOCABULARY_SIZE * 0.995);
  });

  it('makes the scale titles Zipfian: a few common words, a long tail of rare ones', () => {
    const scale = { artists: 6_000, labels: 1_000, festivals: 40, masters: 20_000, bandcampArtists: 2_000 };
    const zipf = wordCounts([...streamCatalogue({ scale, titleVocabulary: 'zipf' }).masters()].map((master) => master.title));
    const demo = wordCounts([...streamCatalogue({ scale }).masters()].map((master) => master.title));
    // The demo list has a few hundred words in all; the Zipf vocabulary thousands, mostly rare.
    expect(demo.length).toBeLessThan(500);
    expect(zipf.length).toBeGreaterThan(8_000);
    const rare = zipf.filter(([, count]) => count <= 2).length;
    expect(rare / zipf.length).toBeGreaterThan(0.6);
    // The head is real and frequent: "love", the most frequent vocabulary word, is in 2–8 % of titles.
    const love = zipf.find(([word]) => word === 'love')?.[1] ?? 0;
    expect(love / 20_000).toBeGreaterThan(0.02);
    expect(love / 20_000).toBeLessThan(0.08);
  });
});
