/**
 * Text folding shared by slugs, search and resolve, so every implementation compares names
 * the same way: NFKC (compatibility forms such as full-width letters), then NFKD with the
 * combining marks removed (accents), then lowercase.
 */

const COMBINING_MARKS = /\p{M}+/gu;
const NOT_ALPHANUMERIC = /[^\p{L}\p{N}]+/u;

/** NFKC + accent-stripped + lowercase; keeps punctuation and spacing. */
export function foldText(text: string): string {
  return text.normalize('NFKC').normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().normalize('NFC');
}

/** The searchable tokens of a text: runs of letters and digits of the folded text. */
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
