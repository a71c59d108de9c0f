import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/api-error.js';
import { masterIdProblem, parseAgentKey, parseMasterId } from './keys.js';

describe('master id rules', () => {
  it.each([
    ['1', 1],
    ['113', 113],
    ['2000000000', 2_000_000_000],
    ['999999999', 999_999_999],
  ])('accepts %s', (raw, id) => {
    expect(parseMasterId(raw)).toBe(id);
  });

  it.each(['0', '-1', '1.5', '1e3', '+5', ' 12', '12 ', '2000000001', '9999999999999', 'abc', '', '0012', '0x10', '١٢', '１２', '12abc', 'Infinity', 'NaN'])(
    'refuses %j with invalid_master_id',
    (raw) => {
      expect(() => parseMasterId(raw)).toThrowError(ApiError);
      try {
        parseMasterId(raw);
      } catch (error) {
        expect((error as ApiError).code).toBe('invalid_master_id');
        expect((error as ApiError).body.details).toEqual([{ path: 'id', message: expect.any(String) }]);
      }
    },
  );

  it('checks JSON numbers in batches by the same rules', () => {
    expect(masterIdProblem(5)).toBeNull();
    expect(masterIdProblem(0)).not.toBeNull();
    expect(masterIdProblem(1.5)).not.toBeNull();
    expect(masterIdProblem(2_000_000_001)).not.toBeNull();
    expect(masterIdProblem('5')).toBeNull();
    expect(masterIdProblem(null)).not.toBeNull();
  });
});

describe('agent keys', () => {
  it.each([
    ['12901', { by: 'cluster_id', cluster_id: 12901 }],
    ['vince-watson', { by: 'slug', slug: 'vince-watson' }],
    ['discogs:3225', { by: 'discogs', id: 3225 }],
    ['mbid:0A3B5C7D-1111-4222-8333-944455556666', { by: 'mbid', mbid: '0a3b5c7d-1111-4222-8333-944455556666' }],
  ])('parses %s', (raw, key) => {
    expect(parseAgentKey(raw)).toEqual(key);
  });

  it.each(['', 'Vince Watson', '123-', '---', 'discogs:abc', 'discogs:0', 'mbid:nope', '0', '-5'])('refuses %j', (raw) => {
    expect(() => parseAgentKey(raw)).toThrowError(ApiError);
  });
});

describe('agent key id ranges (catalogue/id-ranges.ts)', () => {
  const answer = (raw: string) => {
    try {
      return parseAgentKey(raw);
    } catch (error) {
      return (error as ApiError).status;
    }
  };

  it.each([
    ['2147483647', { by: 'cluster_id', cluster_id: 2_147_483_647 }],
    ['2147483648', 404],
    ['8000000003', 404],
    ['8000000004', 400],
    ['9'.repeat(400), 400],
    ['discogs:536870911', { by: 'discogs', id: 536_870_911 }],
    ['discogs:536870912', 404],
    ['discogs:2000000000', 404],
    ['discogs:2000000001', 400],
  ])('%s → %j', (raw, expected) => {
    expect(answer(raw)).toEqual(expected);
  });
});
