/**
 * COPY's text format (PostgreSQL docs, "COPY — Text Format"): one row a line, columns split by
 * tabs, `\N` for NULL, and backslash, newline, carriage return and tab escaped. U+0000 is
 * dropped: no text or jsonb value can hold it, and Discogs text never means it
 * (docs/decisions.md §6, "Text no store can hold").
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what COPY text cannot carry.
const SPECIAL = /[\\\n\r\t\u0000]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above.
const SPECIALS = /[\\\n\r\t\u0000]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u0000': '' };

export function copyText(value: string | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c] as string) : value;
}

export function copyInt(value: number | null | undefined): string {
  return value === null || value === undefined ? '\\N' : String(value);
}

const ARRAY_SPECIAL = /[\\"]/;
const ARRAY_SPECIALS = /[\\"]/g;

/**
 * A text[] literal: every element double-quoted, `"` and `\` backslash-escaped, then
 * COPY-escaped. Most elements hold neither, and are tested before any replace (issue 13: this
 * was half of a search document's COPY line).
 */
export function copyTextArray(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as string;
    literal += `${i === 0 ? '"' : ',"'}${ARRAY_SPECIAL.test(value) ? value.replace(ARRAY_SPECIALS, (c) => `\\${c}`) : value}"`;
  }
  return copyText(`${literal}}`);
}

function withoutNul(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
}

/**
 * JSON text without U+0000, which no jsonb value can hold. JSON.stringify writes U+0000 as the
 * six characters `\u0000`, never raw, and almost no record holds one: the replacer that drops
 * it (a call per value, 10 % of the dump worker's time on releases, issue 13) runs only when
 * that text appears.
 */
export function jsonWithoutNul(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('\\u0000') ? JSON.stringify(value, withoutNul) : json;
}

/** A jsonb column: JSON never holds a raw newline or tab, so only backslashes need escaping. */
export function copyJson(doc: unknown): string {
  const json = jsonWithoutNul(doc);
  return json.includes('\\') ? json.replaceAll('\\', '\\\\') : json;
}
