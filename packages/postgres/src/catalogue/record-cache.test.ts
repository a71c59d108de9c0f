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
});
