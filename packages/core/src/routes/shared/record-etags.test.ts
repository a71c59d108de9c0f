import { describe, expect, it } from 'vitest';
import { pureHasher } from '../../defaults.js';
import { etagOf } from '../../http/conditional.js';
import { recordAnswer, recordBody, recordBytes, variantOf } from './record-etags.js';

describe('recordAnswer', () => {
  it('builds the body once per record and variant, with the ETag of exactly that body', () => {
    let builds = 0;
    const build = (text: string) => () => {
      builds++;
      return text;
    };
    const record = { master_id: 1 };
    const first = recordAnswer(record, 'https://a/api/v1', build('{"a":1}'), pureHasher);
    expect(first.etag).toBe(etagOf('{"a":1}', pureHasher));
    expect(recordAnswer(record, 'https://a/api/v1', build('ignored'), pureHasher)).toBe(first);
    expect(builds).toBe(1);
    // Another base URL or version: built again.
    const other = recordAnswer(record, 'https://a/api/v2', build('{"a":2}'), pureHasher);
    expect(other.body).toBe('{"a":2}');
    expect(other.etag).toBe(etagOf('{"a":2}', pureHasher));
    expect(builds).toBe(2);
  });

  it('keys serialized records by their text: another record text is another answer', () => {
    const one = recordAnswer('{"master_id":7}', 'v', () => 'seven', pureHasher);
    const two = recordAnswer('{"master_id":8}', 'v', () => 'eight', pureHasher);
    expect([one.body, two.body]).toEqual(['seven', 'eight']);
    expect(recordAnswer('{"master_id":7}', 'v', () => 'changed', pureHasher).body).toBe('seven');
  });

  it('recordBody: one body per record text and variant, built again for another variant or text', () => {
    let builds = 0;
    const build = (text: string) => () => {
      builds++;
      return text;
    };
    expect(recordBody('{"master_id":9}', 'https://a/api/v1', build('nine'))).toBe('nine');
    expect(recordBody('{"master_id":9}', 'https://a/api/v1', build('again'))).toBe('nine');
    expect(builds).toBe(1);
    expect(recordBody('{"master_id":9}', 'https://b/api/v1', build('nine at b'))).toBe('nine at b');
    expect(recordBody('{"master_id":10}', 'https://b/api/v1', build('ten'))).toBe('ten');
    expect(builds).toBe(3);
  });

  it('recordBytes: the body as UTF-8, encoded once per record text and variant', () => {
    let builds = 0;
    const build = (text: string) => () => {
      builds++;
      return text;
    };
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    expect(decode(recordBytes('{"master_id":11}', 'https://a/api/v1', build('Dahlbäck ✓')))).toBe('Dahlbäck ✓');
    expect(recordBytes('{"master_id":11}', 'https://a/api/v1', build('again'))).toBe(recordBytes('{"master_id":11}', 'https://a/api/v1', build('again')));
    expect(builds).toBe(1);
    expect(decode(recordBytes('{"master_id":11}', 'https://b/api/v1', build('eleven at b')))).toBe('eleven at b');
    expect(builds).toBe(2);
  });

  it('variantOf: one string object per base URL and version base while the pair repeats', () => {
    const base = ['/api/', 'v1'].join('');
    const first = variantOf('https://a.example', base);
    expect(first).toBe('https://a.example/api/v1');
    // Made again from other string objects: the same object back, so memos compare one pointer.
    expect(Object.is(variantOf(['https://', 'a.example'].join(''), base), first)).toBe(true);
    expect(variantOf('https://a.example', '/api/v2')).toBe('https://a.example/api/v2');
    expect(variantOf('https://a.example', base)).toBe('https://a.example/api/v1');
  });
});
