/**
 * Strict query parsing (query.ts): every refusal names its parameter and says why, so a client
 * can fix its call; nothing unknown, repeated or unstorable reaches a route.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { cursorParam, integerParam, limitParam, textParam, yearParam } from './params.js';
import { parseQuery, type QuerySpec, type RawQuery, rawQueryOf } from './query.js';

const spec = {
  q: { schema: v.optional(textParam(20, 'Words.')) },
  limit: { schema: limitParam(10) },
  genre: { schema: v.optional(textParam(20, 'A genre.')), multi: true },
} satisfies QuerySpec;

/** The `details` of the 400 that `parseQuery` throws, or a failure when it does not throw. */
function refusal(raw: RawQuery, s: QuerySpec = spec): Array<{ path: string; message: string; imitates?: string }> {
  try {
    parseQuery(raw, s);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect([e.status, e.code]).toEqual([400, 'invalid_query']);
    return e.body.details as Array<{ path: string; message: string }>;
  }
  throw new Error('parseQuery accepted the query');
}

describe('rawQueryOf', () => {
  it('keeps a single value as a string and collects repeats in order, without normalizing', () => {
    const raw = rawQueryOf(new URLSearchParams('a=1&b=x&a=2&a=3&ｑ=ｆｕｌｌ'));
    expect({ ...raw }).toEqual({ a: ['1', '2', '3'], b: 'x', ｑ: 'ｆｕｌｌ' });
    expect(Object.getPrototypeOf(raw)).toBeNull();
  });

  it('reads a parameter named like an Object property as data', () => {
    expect({ ...rawQueryOf(new URLSearchParams('constructor=1&__proto__=2')) }).toEqual({ constructor: '1', ['__proto__']: '2' });
  });
});

describe('parseQuery', () => {
  it('applies each schema and its default, and collects a multi parameter in order', () => {
    expect(parseQuery({ q: 'house', limit: '25', genre: ['Techno', 'House'] }, spec)).toEqual({ q: 'house', limit: 25, genre: ['Techno', 'House'] });
    expect(parseQuery({}, spec)).toEqual({ q: undefined, limit: 10, genre: undefined });
    expect(parseQuery({ genre: 'Jazz' }, spec).genre).toEqual(['Jazz']);
  });

  it('NFKC-normalizes names and values first', () => {
    expect(parseQuery({ ｑ: 'ｈｏｕｓｅ', ｌｉｍｉｔ: '２' }, spec)).toEqual({ q: 'house', limit: 2, genre: undefined });
  });

  it('merges a name sent both plain and in full-width into one parameter', () => {
    expect(parseQuery({ genre: 'Jazz', ｇｅｎｒｅ: ['Soul', 'Funk'] }, spec).genre).toEqual(['Jazz', 'Soul', 'Funk']);
    expect(refusal({ q: 'a', ｑ: 'b' })).toEqual([{ path: 'q', message: 'must appear at most once' }]);
  });

  it('refuses an unknown parameter, listing the allowed ones, under the name as sent', () => {
    expect(refusal({ page: '2' })).toEqual([{ path: 'page', message: 'unknown parameter; allowed: q, limit, genre' }]);
    expect(refusal({ x: '1' }, {})).toEqual([{ path: 'x', message: 'unknown parameter; allowed: none' }]);
  });

  it('names the allowed parameter an unknown one imitates with look-alike characters', () => {
    // Cyrillic е (U+0435) in "genre".
    expect(refusal({ 'g\u0435nre': 'House' })).toEqual([
      { path: 'g\u0435nre', message: 'unknown parameter; it imitates "genre" with look-alike characters', imitates: 'genre' },
    ]);
  });

  it('refuses a repeated single-valued parameter once, without its schema issues', () => {
    expect(refusal({ limit: ['1', 'x'] })).toEqual([{ path: 'limit', message: 'must appear at most once' }]);
  });

  it('reports every value a schema refuses, with the parameter as path', () => {
    expect(refusal({ limit: '0', genre: ['ok', '', 'x'.repeat(21)] })).toEqual([
      { path: 'limit', message: 'must be at least 1' },
      { path: 'genre', message: 'must not be empty' },
      { path: 'genre', message: 'must be at most 20 characters' },
    ]);
  });

  it('refuses a value no store can hold, once per value, and skips that parameter’s schema', () => {
    expect(refusal({ q: 'a\u0000b' })).toEqual([{ path: 'q', message: 'must not contain U+0000 (NUL)' }]);
    expect(refusal({ genre: ['\ud800', 'ok', 'x\u0000'] })).toEqual([
      { path: 'genre', message: 'must not contain a lone UTF-16 surrogate (it has no UTF-8 encoding)' },
      { path: 'genre', message: 'must not contain U+0000 (NUL)' },
    ]);
    // An unstorable parameter beside a merely invalid one: both reported, each once.
    expect(refusal({ q: '\u0000', limit: '101' })).toEqual([
      { path: 'q', message: 'must not contain U+0000 (NUL)' },
      { path: 'limit', message: 'must be at most 100' },
    ]);
  });

  it('reports issues in the order: unknown names and unstorable values as read, then schemas in the spec’s order', () => {
    expect(refusal({ zz: '1', genre: '', q: '' }).map((d) => d.path)).toEqual(['zz', 'q', 'genre']);
  });
});

describe('parameter schemas (params.ts)', () => {
  const parse = (schema: v.GenericSchema<string | undefined, unknown>, input: string | undefined) => {
    const result = v.safeParse(schema, input);
    return result.success ? { ok: result.output } : { issues: result.issues.map((i) => i.message) };
  };

  it('integerParam: whole numbers in digits, within the bounds', () => {
    const year = integerParam(1900, 2100, 'A year.');
    expect(parse(year, '1900')).toEqual({ ok: 1900 });
    expect(parse(year, '2100')).toEqual({ ok: 2100 });
    expect(parse(year, '1899')).toEqual({ issues: ['must be at least 1900'] });
    expect(parse(year, '2101')).toEqual({ issues: ['must be at most 2100'] });
    for (const bad of ['', '20.5', '-5', '+5', ' 2000', '2000 ', '1e3', '0x10', '12345678901'])
      expect(parse(year, bad), bad).toEqual({ issues: ['must be a whole number written in digits'] });
    expect(parse(integerParam(0, 9_999_999_999, 'Any.'), '9999999999')).toEqual({ ok: 9_999_999_999 });
    expect(parse(integerParam(0, 10, 'Any.'), '0007')).toEqual({ ok: 7 });
  });

  it('integerParam and limitParam carry their description, limitParam its default', () => {
    const limit = limitParam(25);
    expect(parse(limit, undefined)).toEqual({ ok: 25 });
    expect(parse(limit, '100')).toEqual({ ok: 100 });
    expect(parse(limit, '101')).toEqual({ issues: ['must be at most 100'] });
    expect(parse(limit, '0')).toEqual({ issues: ['must be at least 1'] });
    expect(v.getDescription(limit.wrapped)).toBe('Items per page, 1 to 100. Default 25.');
    expect(v.getDescription(limitParam(5, 'Hits.').wrapped)).toBe('Hits. Default 5.');
    expect(v.getDescription(integerParam(1, 2, 'One or two.'))).toBe('One or two.');
  });

  it('yearParam: 1000 to 2999', () => {
    const year = yearParam('Year.');
    expect(parse(year, '1000')).toEqual({ ok: 1000 });
    expect(parse(year, '2999')).toEqual({ ok: 2999 });
    expect(parse(year, '999')).toEqual({ issues: ['must be at least 1000'] });
    expect(parse(year, '3000')).toEqual({ issues: ['must be at most 2999'] });
    expect(v.getDescription(year)).toBe('Year.');
  });

  it('textParam: not empty, at most maxLength characters', () => {
    const text = textParam(3, 'Text.');
    expect(parse(text, 'abc')).toEqual({ ok: 'abc' });
    expect(parse(text, 'a')).toEqual({ ok: 'a' });
    expect(parse(text, '')).toEqual({ issues: ['must not be empty'] });
    expect(parse(text, 'abcd')).toEqual({ issues: ['must be at most 3 characters'] });
    expect(v.getDescription(text)).toBe('Text.');
  });

  it('cursorParam: 1 to 200 url-safe base64 characters', () => {
    const message = 'must be a next_cursor value from a previous page';
    expect(parse(cursorParam, 'aZ09_-')).toEqual({ ok: 'aZ09_-' });
    expect(parse(cursorParam, 'a'.repeat(200))).toEqual({ ok: 'a'.repeat(200) });
    for (const bad of ['', 'a'.repeat(201), 'a b', 'a+b', 'a/b', 'a=', '\nabc', 'abc\n'])
      expect(parse(cursorParam, bad), JSON.stringify(bad)).toEqual({ issues: [message] });
  });
});
