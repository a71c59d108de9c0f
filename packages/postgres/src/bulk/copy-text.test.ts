/**
 * COPY text of a jsonb value (copy-text.ts): U+0000, which no jsonb value can hold, is dropped
 * (docs/decisions.md §6), while the text `\u0000` written by a record itself stays as it is.
 */
import { describe, expect, it } from 'vitest';
import { copyJson, copyTextArray } from './copy-text.js';

// COPY's text format escapes each backslash; undone here to read the JSON PostgreSQL receives.
const received = (line: string) => JSON.parse(line.replaceAll('\\\\', '\\')) as unknown;

describe('copyJson', () => {
  it('drops U+0000 from every string value, however deep', () => {
    const line = copyJson({ title: 'Ops\u0000', tracks: [{ name: '\u0000a\u0000b' }], year: 1999 });
    expect(line).not.toContain('u0000');
    expect(received(line)).toEqual({ title: 'Ops', tracks: [{ name: 'ab' }], year: 1999 });
  });

  it('keeps a backslash followed by u0000 that is the text itself', () => {
    const doc = { notes: 'a literal \\u0000 and a \\ and "quotes"', other: 'x' };
    expect(received(copyJson(doc))).toEqual(doc);
    expect(received(copyJson({ ...doc, nul: '\u0000' }))).toEqual({ ...doc, nul: '' });
  });

  it('writes a record without U+0000 as JSON.stringify does, its backslashes escaped for COPY', () => {
    const doc = { name: 'Tab\there', path: 'C:\\dir' };
    expect(copyJson(doc)).toBe(JSON.stringify(doc).replaceAll('\\', '\\\\'));
  });
});

describe('copyTextArray', () => {
  it('quotes every element and escapes `"` and `\\` in the array literal, then tabs, newlines and backslashes for COPY', () => {
    expect(copyTextArray([])).toBe('{}');
    expect(copyTextArray(['Deep House', 'Techno'])).toBe('{"Deep House","Techno"}');
    expect(copyTextArray(['say "hi"', 'back\\slash', 'tab\there', 'NUL\u0000', 'a,b', '{x}'])).toBe(
      '{"say \\\\"hi\\\\"","back\\\\\\\\slash","tab\\there","NUL","a,b","{x}"}',
    );
  });
});
