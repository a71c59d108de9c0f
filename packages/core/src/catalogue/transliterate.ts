/**
 * Latin letters for a name in any script, for slugs (docs/decisions.md §5, issue 12 item 5):
 * Cyrillic by the ICAO Doc 9303 schema of `iuliia` (the passport standard: `Евгений Щемилин`
 * → `Evgenii Shchemilin`, one spelling per letter, no diacritics), everything else by
 * `any-ascii` (Greek, CJK, Latin with diacritics, ligatures: `Straße` → `Strasse`, `Ørsted` →
 * `Orsted`). Both are small pure-JS tables with no runtime dependency, so core stays portable.
 * Each Han character is one syllable: it is set apart by spaces so a slug reads
 * `ban-ben-long-yi` rather than one run of letters.
 */
import * as anyAsciiModule from 'any-ascii';
// Named imports: iuliia's ESM build (what bundlers read) has no default export.
import { ICAO_DOC_9303, translate } from 'iuliia';

/**
 * any-ascii is an ES module only. The CommonJS build reaches it by require(esm), and esbuild's
 * CommonJS interop then hands over the whole namespace as the default export, so the function
 * is one level down there (issue 30 item 11: `anyAscii is not a function` from the packed CJS).
 */
type AnyAscii = (text: string) => string;
const anyAsciiExport = anyAsciiModule.default as AnyAscii | { default: AnyAscii };
const anyAscii: AnyAscii = typeof anyAsciiExport === 'function' ? anyAsciiExport : anyAsciiExport.default;

const CYRILLIC = /\p{Script=Cyrillic}/u;
const HAN = /\p{Script=Han}/gu;

export function transliterate(text: string): string {
  const latinCyrillic = CYRILLIC.test(text) ? translate(text, ICAO_DOC_9303) : text;
  return anyAscii(latinCyrillic.replace(HAN, (char) => ` ${char} `));
}
