import { describe, expect, it } from 'vitest';
import { consoleLogger } from './defaults.js';

describe('consoleLogger', () => {
  it('writes one JSON line per record at or above its level, the time first', () => {
    const lines: string[] = [];
    const logger = consoleLogger('warn', (line) => lines.push(line));
    logger.log({ level: 'info', kind: 'quiet' });
    logger.log({ level: 'warn', kind: 'loud', detail: { a: 1 }, note: 'line\nbreak' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\{"time":"[^"]+","level":"warn","kind":"loud",/);
    expect(JSON.parse(lines[0] as string)).toEqual({ time: expect.any(String), level: 'warn', kind: 'loud', detail: { a: 1 }, note: 'line\nbreak' });
    expect(Number.isNaN(Date.parse(JSON.parse(lines[0] as string).time))).toBe(false);
  });
});
