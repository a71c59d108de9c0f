/**
 * foldText's ASCII shortcut (text.ts): any ASCII text folds exactly as the full path folds it
 * (NFKC, transliteration, lowercase), and names in other scripts still take the full path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText, nameKey, tokensOf } from './text.js';
import { transliterate } from './transliterate.js';

const fullFold = (text: string) => transliterate(text.normalize('NFKC')).toLowerCase();

describe('foldText', () => {
  it('folds every ASCII text, controls included, as the full path does', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)), maxLength: 80 }), (text) => {
        expect(foldText(text)).toBe(fullFold(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('still transliterates every other script', () => {
    expect(foldText('Dahlbäck')).toBe('dahlback');
    expect(foldText('Евгений Щемилин')).toBe('evgenii shchemilin');
    expect(foldText('Straße ＡＢＣ')).toBe('strasse abc');
    expect(tokensOf('半分 Ølen')).toEqual(['ban', 'fen', 'olen']);
  });
});

describe('nameKey', () => {
  it('the tokens joined by one space, so spacing and punctuation do not make two names', () => {
    expect(nameKey('Aphex  Twin!')).toBe('aphex twin');
    expect(nameKey(' aphex twin ')).toBe('aphex twin');
    expect(nameKey('Moments-in-Time')).toBe('moments in time');
    expect(nameKey('')).toBe('');
  });
});
