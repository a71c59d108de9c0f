/** UTS #39 skeletons (skeleton.ts) and the text rule every store shares (storable.ts). */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { detailsOf } from './issues.js';
import { imitatedName, skeleton } from './skeleton.js';
import { storableText, unstorableTextProblem } from './storable.js';

describe('skeleton and imitatedName', () => {
  it('maps look-alikes to one skeleton, decomposed', () => {
    expect(skeleton('g\u0435nre')).toBe(skeleton('genre'));
    expect(skeleton('ｇｅｎｒｅ')).not.toBe('ｇｅｎｒｅ');
    // NFD before and after the mapping: a precomposed letter equals its decomposed form.
    expect(skeleton('é')).toBe(skeleton('e\u0301'));
    expect(skeleton('é')).toBe('e\u0301');
  });

  it('names the allowed name imitated, never the name itself, nor an unrelated one', () => {
    expect(imitatedName('g\u0435nre', ['q', 'genre'])).toBe('genre');
    expect(imitatedName('genre', ['genre'])).toBeNull();
    expect(imitatedName('page', ['q', 'genre'])).toBeNull();
    expect(imitatedName('styIe', ['q', 'style'])).toBe('style');
  });
});

describe('unstorableTextProblem and storableText', () => {
  it('refuses U+0000 and lone surrogates, accepts paired ones', () => {
    expect(unstorableTextProblem('plain')).toBeNull();
    expect(unstorableTextProblem('\u{1F600} emoji')).toBeNull();
    expect(unstorableTextProblem('a\u0000')).toBe('must not contain U+0000 (NUL)');
    expect(unstorableTextProblem('\ud800x')).toBe('must not contain a lone UTF-16 surrogate (it has no UTF-8 encoding)');
    expect(unstorableTextProblem('x\udc00')).toBe('must not contain a lone UTF-16 surrogate (it has no UTF-8 encoding)');
    // NUL is named first when both are there.
    expect(unstorableTextProblem('\ud800\u0000')).toBe('must not contain U+0000 (NUL)');
  });

  it('as a valibot action: one issue with the reason, none for storable text', () => {
    const schema = v.object({ name: v.pipe(v.string(), storableText) });
    expect(v.safeParse(schema, { name: 'ok' }).success).toBe(true);
    const result = v.safeParse(schema, { name: 'a\u0000' });
    expect(result.success).toBe(false);
    expect(detailsOf(result.issues ?? [])).toEqual([{ path: 'name', message: 'must not contain U+0000 (NUL)' }]);
    const lone = v.safeParse(schema, { name: '\udfff' });
    expect(detailsOf(lone.issues ?? [])).toEqual([{ path: 'name', message: 'must not contain a lone UTF-16 surrogate (it has no UTF-8 encoding)' }]);
  });
});

describe('detailsOf', () => {
  it('joins the issue path with dots under the prefix', () => {
    const schema = v.object({ limits: v.object({ burst: v.number('must be a number') }) });
    const issues = v.safeParse(schema, { limits: { burst: 'x' } }).issues ?? [];
    expect(detailsOf(issues)).toEqual([{ path: 'limits.burst', message: 'must be a number' }]);
    expect(detailsOf(issues, 'body')).toEqual([{ path: 'body.limits.burst', message: 'must be a number' }]);
  });

  it('uses the prefix alone, or an empty path, for an issue on the whole value', () => {
    const issues = v.safeParse(v.string('must be text'), 1).issues ?? [];
    expect(detailsOf(issues, 'q')).toEqual([{ path: 'q', message: 'must be text' }]);
    expect(detailsOf(issues)).toEqual([{ path: '', message: 'must be text' }]);
    expect(detailsOf(issues, '')).toEqual([{ path: '', message: 'must be text' }]);
  });

  it('keeps array indexes in the path and one entry per issue', () => {
    const schema = v.array(v.string('must be text'));
    const issues = v.safeParse(schema, ['a', 1, 2]).issues ?? [];
    expect(detailsOf(issues, 'ids')).toEqual([
      { path: 'ids.1', message: 'must be text' },
      { path: 'ids.2', message: 'must be text' },
    ]);
  });
});
