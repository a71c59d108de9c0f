/**
 * Text folding shared by slugs, search and resolve, so every implementation compares names
 * the same way: NFKC (compatibility forms such as full-width letters), transliterated to
 * ASCII the way slugs are (transliterate.ts: Cyrillic by ICAO Doc 9303, every other script by
 * any-ascii, so `dahlback` finds Dahlbäck, `borud` Børud, `strasse` Straße and
 * `evgenii` Евгений), then lowercase. A query is folded like the names it is compared with.
 */
import { transliterate } from './transliterate.js';

const NOT_ALPHANUMERIC = /[^a-z0-9]+/;

/**
 * ASCII is its own NFKC form and its own transliteration (any-ascii keeps every code point
 * below 0x80, Cyrillic and Han are not in it), and most names are ASCII: folding them is only
 * lowercasing. NFKC and any-ascii's per-character loop were most of finish()'s time per search
 * document (issue 13).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: all of ASCII, controls included, folds to itself.
const ASCII = /^[\u0000-\u007f]*$/;

/** NFKC + transliterated + lowercase; keeps punctuation and spacing. */
export function foldText(text: string): string {
  // Stryker disable next-line ConditionalExpression: a shortcut only; the full path folds ASCII alike (text.test.ts checks 2,000 random ASCII texts).
  if (ASCII.test(text)) return text.toLowerCase();
  return transliterate(text.normalize('NFKC')).toLowerCase();
}

/** The searchable tokens of a text: runs of letters and digits of the folded text ([a-z0-9]+). */
export function tokensOf(text: string): string[] {
  return foldText(text)
    .split(NOT_ALPHANUMERIC)
    .filter((token) => token.length > 0);
}

/**
 * The key two names are compared by for "exact name" matches: their tokens joined by one
 * space, so "Aphex  Twin!" and "aphex twin" are the same name.
 */
export function nameKey(text: string): string {
  return tokensOf(text).join(' ');
}
