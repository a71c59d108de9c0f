/**
 * Typo tolerance (issue 29), the same for every store: which query words may be corrected, the
 * vocabulary words that may correct them, and which corrections an answer reports. How a
 * corrected query is matched and scored is in search.ts ("Typos"); the stores only differ in
 * where the vocabulary lives (memory: built from the search entries; PostgreSQL: the
 * search_vocabulary table finish() rebuilds, migration 0018) and they pick candidates by the
 * same rule, so both correct a word alike:
 *
 * - Meilisearch's thresholds: a word of 5–8 characters may take 1 edit, of 9 or more 2; a
 *   shorter word is never corrected. An edit is an insertion, deletion, substitution or a
 *   transposition of two adjacent characters (optimal string alignment distance).
 * - Candidates: vocabulary words (every word of 4+ characters of some search entry, with the
 *   number of entries holding it). A word of 5–8 characters (one edit): every vocabulary word
 *   one edit away, found by equality among the word's one-edit variants over [a-z0-9]
 *   (oneEditVariantsOf, ~36 · (2n + 1) words: a Levenshtein automaton's answer by enumeration,
 *   as Meilisearch finds a word's one-typo derivations; PostgreSQL finds the same words by their
 *   deletion forms, deletionsOf) — where a trigram search rechecked ~1,500 vocabulary words per
 *   query word at 1 M masters and cost ~8 ms (bench/catalogue/results/typos-scale-1.txt). A word of 9+ characters (two edits, too many
 *   variants to enumerate): vocabulary words of a length within the allowed edits that are
 *   either trigram-similar to it (pg_trgm's `similarity` ≥ TRIGRAM_THRESHOLD, 0.5; the
 *   MAX_TRIGRAM_CANDIDATES most similar, then by word) or one adjacent transposition or one
 *   deletion of it. Of those, the ones within the allowed edits, fewest edits first, then held
 *   by more entries, then by word: at most MAX_CORRECTIONS per word.
 * - Bounded work: at most MAX_CORRECTED_WORDS words of a query are corrected (the first ones
 *   long enough), and a word longer than MAX_CORRECTABLE_LENGTH is not.
 */

/** Words shorter than this are matched exactly (as typed, the last one as a prefix). */
export const MIN_TYPO_LENGTH = 5;
/** Words of this length and more may take two edits. */
export const TWO_TYPOS_LENGTH = 9;
/** Vocabulary words shorter than this are never a correction (a 5-letter word minus one edit). */
export const MIN_VOCABULARY_LENGTH = MIN_TYPO_LENGTH - 1;
/** Query words corrected at most (the first ones of MIN_TYPO_LENGTH or more characters). */
export const MAX_CORRECTED_WORDS = 5;
/** Longer words are not corrected (a 200-character q holds at most one such word). */
export const MAX_CORRECTABLE_LENGTH = 40;
/** Corrections kept per word. */
export const MAX_CORRECTIONS = 3;
/** Trigram-similar vocabulary words considered per word, most similar first. */
export const MAX_TRIGRAM_CANDIDATES = 50;
/**
 * The trigram similarity of a two-edit candidate (pg_trgm's `similarity`; PostgreSQL sets
 * `pg_trgm.similarity_threshold` to it for the `%` of that one statement). 0.5 since
 * 2026-11-27, pg_trgm's default 0.3 before: at 1 M masters the GIN index handed 2,712 vocabulary
 * words to recheck for `bexgqeath` at 0.3 (17–31 ms, the typo route's p95) and 25 at 0.5
 * (~6 ms; bench/catalogue/results/typos-fast-scale-1.txt). One edit in a word of 9+ letters
 * keeps a similarity of at least (n − 2) / (n + 4) ≥ 0.53 (a substitution; transpositions and
 * deletions are also looked up by equality), and the relevance suite's two-edit typos reach 0.5
 * (`theodrakiss`); two scattered edits in a short word fall below either threshold.
 */
export const TRIGRAM_THRESHOLD = 0.5;

/** Edits allowed in a word of `length` characters. */
export function allowedTypos(length: number): number {
  return length >= TWO_TYPOS_LENGTH ? 2 : length >= MIN_TYPO_LENGTH ? 1 : 0;
}

/** The query words that may be corrected: their positions in `tokens`. */
export function correctablePositions(tokens: readonly string[]): number[] {
  const positions: number[] = [];
  for (let i = 0; i < tokens.length && positions.length < MAX_CORRECTED_WORDS; i++) {
    const length = (tokens[i] as string).length;
    if (length >= MIN_TYPO_LENGTH && length <= MAX_CORRECTABLE_LENGTH) positions.push(i);
  }
  return positions;
}

/**
 * Optimal string alignment distance (Damerau–Levenshtein without edits of a transposed pair),
 * or `max + 1` as soon as it is known to exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = b.length + 1;
  let before = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, j) => j);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] as number) + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length] as number, max + 1);
}

/** The characters of a folded token (text.ts, tokensOf: [a-z0-9]+). */
const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Every word one edit away from `word` over [a-z0-9] (an insertion, a deletion, a substitution
 * or a transposition of two adjacent characters: optimal string alignment distance 1), the word
 * itself left out: the candidates of a word allowed one edit, looked up by equality.
 */
export function oneEditVariantsOf(word: string): string[] {
  const variants = new Set(nearVariantsOf(word));
  for (let i = 0; i <= word.length; i++) {
    const before = word.slice(0, i);
    for (const character of TOKEN_ALPHABET) {
      variants.add(before + character + word.slice(i));
      if (i < word.length && character !== word[i]) variants.add(before + character + word.slice(i + 1));
    }
  }
  variants.delete(word);
  return [...variants];
}

/** The words one adjacent transposition or one deletion away from `word`, looked up as they are. */
export function nearVariantsOf(word: string): string[] {
  const variants = new Set<string>();
  for (let i = 0; i + 1 < word.length; i++) {
    if (word[i] !== word[i + 1]) variants.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  for (const deletion of deletionsOf(word)) variants.add(deletion);
  variants.delete(word);
  return [...variants];
}

/**
 * `word`'s one-deletion forms, each once. PostgreSQL finds a word's one-edit candidates by them
 * (packages/postgres/src/catalogue/typos.ts, migration 0019): two words are one edit apart only
 * when one is a deletion form of the other or they share one.
 */
export function deletionsOf(word: string): string[] {
  const forms = new Set<string>();
  for (let i = 0; i < word.length; i++) forms.add(word.slice(0, i) + word.slice(i + 1));
  return [...forms];
}

/** pg_trgm's trigrams of one [a-z0-9]+ word: padded with two spaces before and one after, as a set. */
export function trigramsOf(word: string): Set<string> {
  const padded = `  ${word} `;
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) trigrams.add(padded.slice(i, i + 3));
  return trigrams;
}

/** pg_trgm's similarity: shared trigrams over the trigrams of either. */
export function trigramSimilarity(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const trigram of a) if (b.has(trigram)) shared++;
  return shared / (a.size + b.size - shared);
}

/** A vocabulary word and the number of search entries holding it. */
export interface VocabularyWord {
  word: string;
  documents: number;
}

/** The corrections of `word` among its candidates (any order, duplicates allowed): see the rules above. */
export function correctionsAmong(word: string, candidates: readonly VocabularyWord[]): string[] {
  const max = allowedTypos(word.length);
  if (max === 0) return [];
  const seen = new Set<string>();
  const kept: Array<VocabularyWord & { distance: number }> = [];
  for (const candidate of candidates) {
    if (candidate.word === word || seen.has(candidate.word)) continue;
    seen.add(candidate.word);
    const distance = editDistance(word, candidate.word, max);
    if (distance <= max) kept.push({ ...candidate, distance });
  }
  kept.sort((a, b) => a.distance - b.distance || b.documents - a.documents || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  return kept.slice(0, MAX_CORRECTIONS).map((candidate) => candidate.word);
}

/**
 * The candidates of `word` in an in-memory vocabulary, by the rule PostgreSQL's query applies
 * (packages/postgres/src/catalogue/typos.ts): one edit allowed, the vocabulary words among its
 * one-edit variants; two, trigram-similar words of a near length, the most similar first, and
 * the near variants.
 */
export function memoryCandidatesOf(word: string, vocabulary: ReadonlyMap<string, number>, trigrams: ReadonlyMap<string, Set<string>>): VocabularyWord[] {
  const max = allowedTypos(word.length);
  if (max === 0) return [];
  if (max === 1) {
    const candidates: VocabularyWord[] = [];
    for (const variant of oneEditVariantsOf(word)) {
      const documents = vocabulary.get(variant);
      if (documents !== undefined) candidates.push({ word: variant, documents });
    }
    return candidates;
  }
  const own = trigramsOf(word);
  const similar: Array<VocabularyWord & { similarity: number }> = [];
  for (const [candidate, documents] of vocabulary) {
    if (Math.abs(candidate.length - word.length) > max) continue;
    const similarity = trigramSimilarity(own, trigrams.get(candidate) ?? trigramsOf(candidate));
    if (similarity >= TRIGRAM_THRESHOLD) similar.push({ word: candidate, documents, similarity });
  }
  similar.sort((a, b) => b.similarity - a.similarity || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  const candidates: VocabularyWord[] = similar.slice(0, MAX_TRIGRAM_CANDIDATES);
  for (const variant of nearVariantsOf(word)) {
    const documents = vocabulary.get(variant);
    if (documents !== undefined) candidates.push({ word: variant, documents });
  }
  return candidates;
}

/** Per query word (by position), its corrections; a word without any has no entry. */
export type Corrections = ReadonlyMap<number, readonly string[]>;

/**
 * The most documents the corrections of a query of two or more words may bring in (their
 * variants' `documents`, summed over the corrected words): such a query has no ranked path, so
 * every document a correction brings in is scored — a common word at 1 M masters cost 0.7 s of
 * PostgreSQL per query and no answer within 10 s under load (bench/catalogue/results/
 * typos-scale-1.txt). Above it the query is answered as typed, uncorrected.
 *
 * A one-word query is corrected whatever its corrections hold (since 2026-11-27,
 * bench/catalogue/results/typos-fast-scale-1.txt): PostgreSQL pages it from the corrections'
 * search_terms rows as it pages a word typed correctly (search.ts, "Typos": each entry read by
 * the first variant it holds, so those rows are the top level in the scoring's order), and
 * scores the prefix matches only when those rows do not fill the page — what typing each
 * correction would cost (docs/decisions.md, "Typo tolerance").
 */
export const MAX_CORRECTED_DOCUMENTS = 10_000;

/** Whether the corrections of `tokens` are searched: a one-word query's always, else within MAX_CORRECTED_DOCUMENTS (`limit` for tests). */
export function correctionsAffordable(
  tokens: readonly string[],
  corrections: Corrections,
  documentsOf: (word: string) => number,
  limit = MAX_CORRECTED_DOCUMENTS,
): boolean {
  if (tokens.length === 1) return true;
  let documents = 0;
  for (const variants of corrections.values()) for (const word of variants) documents += documentsOf(word);
  return documents <= limit;
}

/**
 * What an answer reports as corrected: each corrected query word and the correction the first
 * hit of the page that needed one for that word matched (its title, artists, genres or styles
 * hold a word the correction prefixes, and none the typed word prefixes; of several, one the
 * hit holds as a whole word first, then in the order of the corrections). A word no hit of the
 * page needed corrected is not reported.
 */
export function correctedOf(
  tokens: readonly string[],
  corrections: Corrections,
  hits: ReadonlyArray<{ name: string; artists: readonly string[]; genres: readonly string[]; styles: readonly string[] }>,
  tokensOfText: (text: string) => string[],
): Record<string, string> {
  const corrected: Record<string, string> = {};
  if (corrections.size === 0) return corrected;
  const pending = new Map([...corrections].map(([position, words]) => [tokens[position] as string, words]));
  for (const hit of hits) {
    if (pending.size === 0) break;
    const words = [hit.name, ...hit.artists, ...hit.genres, ...hit.styles].flatMap(tokensOfText);
    const prefixes = (token: string) => words.some((word) => word.startsWith(token));
    for (const [token, candidates] of pending) {
      if (prefixes(token)) continue;
      // A correction the hit holds whole before one that only prefixes a word of it (`annes`:
      // `annees` rather than `anne`).
      const used = candidates.find((candidate) => words.includes(candidate)) ?? candidates.find(prefixes);
      if (used === undefined) continue;
      corrected[token] = used;
      pending.delete(token);
    }
  }
  return corrected;
}
