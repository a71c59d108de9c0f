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
    const line = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(line).toEqual({ time: expect.any(String), level: 'warn', kind: 'loud', detail: { a: 1 }, note: 'line\nbreak' });
    expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('puts the same fields on every line, after the time and before the record', () => {
    const lines: string[] = [];
    const logger = consoleLogger('info', (line) => lines.push(line), { pid: 42, role: 'primary' });
    logger.log({ level: 'info', kind: 'a' });
    logger.log({ level: 'error', kind: 'b' });
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: expect.any(String), pid: 42, role: 'primary', level: 'info', kind: 'a' },
      { time: expect.any(String), pid: 42, role: 'primary', level: 'error', kind: 'b' },
    ]);
    expect(lines[0]).toMatch(/^\{"time":"[^"]+","pid":42,"role":"primary","level":"info"/);
  });
});
