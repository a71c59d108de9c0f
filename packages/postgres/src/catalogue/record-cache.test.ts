import { describe, expect, it } from 'vitest';
import type { GenerationState } from '../replicas/catalogue-generation.js';
import { RecordCache } from './record-cache.js';

function generationAt(start: number | null) {
  let state: GenerationState | null = start === null ? null : { generation: start, lsn: 0n };
  const listeners: Array<(s: GenerationState) => void> = [];
  return {
    current: () => state,
    onChange: (listener: (s: GenerationState) => void) => listeners.push(listener),
    advance() {
      state = { generation: (state?.generation ?? 0) + 1, lsn: 0n };
      for (const listener of listeners) listener(state);
    },
  };
}

describe('RecordCache', () => {
  it('keeps records until the generation advances, then drops them all', () => {
    const generation = generationAt(1);
    const cache = new RecordCache(generation);
    cache.set(113, '{"master_id":113}', 1);
    expect(cache.get(113)).toBe('{"master_id":113}');
    generation.advance();
    expect(cache.get(113)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('keeps nothing read under another generation, or while the generation is unknown', () => {
    const generation = generationAt(null);
    const cache = new RecordCache(generation);
    cache.set(1, '{}', null);
    expect(cache.size).toBe(0);
    generation.advance();
    generation.advance();
    // Read under generation 1, stored after the catalogue moved to 2: the record may be the old one.
    cache.set(1, '{"old":true}', 1);
    expect(cache.size).toBe(0);
    cache.set(1, '{"new":true}', 2);
    expect(cache.get(1)).toBe('{"new":true}');
  });

  it('drops what it kept when a read answers a newer generation than the NOTIFY has told (issue 29)', () => {
    const generation = generationAt(1);
    const cache = new RecordCache(generation);
    cache.set(113, '{"title":"old"}', 1);
    // The same generation, or an older one (a replica behind), changes nothing kept.
    cache.observe(1);
    cache.observe(0);
    expect(cache.get(113)).toBe('{"title":"old"}');
    cache.observe(2);
    expect(cache.currentGeneration).toBe(2);
    expect(cache.get(113)).toBeUndefined();
    // The NOTIFY of generation 2, arriving after the read that saw it, drops nothing read since.
    cache.set(113, '{"title":"new"}', 2);
    generation.advance();
    expect(cache.get(113)).toBe('{"title":"new"}');
  });

  it('stays within its byte bound, dropping the least recently used first', () => {
    const cache = new RecordCache(generationAt(1), 1_000);
    const record = (id: number) => JSON.stringify({ master_id: id, pad: 'x'.repeat(80) });
    for (let id = 1; id <= 20; id++) {
      cache.set(id, record(id), 1);
      // Keep reading record 1: it stays, the others age out.
      cache.get(1);
    }
    expect(cache.bytes).toBeLessThanOrEqual(1_000);
    expect(cache.get(1)).toBe(record(1));
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(20)).toBe(record(20));
  });

  it('gives a record read since it was placed one more turn, and drops the unread in the order they were placed', () => {
    // Each record is 100 bytes (50 UTF-16 code units): three fit.
    const cache = new RecordCache(generationAt(1), 300);
    const record = (id: number) => JSON.stringify({ id }).padEnd(50, ' ');
    for (const id of [1, 2, 3]) cache.set(id, record(id), 1);
    cache.get(1);
    cache.set(4, record(4), 1);
    // 1 was read: placed again behind 4; 2 was not: dropped.
    expect(cache.get(2)).toBeUndefined();
    cache.set(5, record(5), 1);
    cache.set(6, record(6), 1);
    // 3 and 4 were never read; 1 stays only while it keeps being read.
    expect([3, 4].map((id) => cache.get(id))).toEqual([undefined, undefined]);
    expect(cache.get(1)).toBe(record(1));
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBe(300);
  });

  it('counts exactly the bytes it holds through replacements and drops', () => {
    const cache = new RecordCache(generationAt(1), 5_000);
    const texts = new Map<number, string>();
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % n;
    };
    for (let step = 0; step < 2_000; step++) {
      const id = random(200);
      if (random(3) === 0) {
        const text = 'x'.repeat(10 + random(300));
        cache.set(id, text, 1);
        texts.set(id, text);
      } else {
        const text = cache.get(id);
        if (text !== undefined) expect(text).toBe(texts.get(id));
      }
      expect(cache.bytes).toBeLessThanOrEqual(5_000);
    }
    let held = 0;
    for (const [id, text] of texts) if (cache.get(id) !== undefined) held += text.length * 2;
    expect(cache.bytes).toBe(held);
  });
});
