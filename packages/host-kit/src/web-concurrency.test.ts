import { describe, expect, it } from 'vitest';
import { readEnv } from './env.js';
import { MAX_WEB_CONCURRENCY, webConcurrencyOf, workersRefusal } from './web-concurrency.js';

describe('WEB_CONCURRENCY', () => {
  it('is 1 when unset or empty: one process, as before', () => {
    expect(webConcurrencyOf(undefined)).toBe(1);
    expect(webConcurrencyOf('')).toBe(1);
    expect(readEnv({}).webConcurrency).toBe(1);
  });

  it('takes a whole number, and auto as the available parallelism (at most 64)', () => {
    expect(webConcurrencyOf('4')).toBe(4);
    expect(webConcurrencyOf(' 2 ')).toBe(2);
    expect(webConcurrencyOf('auto', () => 6)).toBe(6);
    expect(webConcurrencyOf('auto', () => 512)).toBe(MAX_WEB_CONCURRENCY);
    expect(readEnv({ WEB_CONCURRENCY: '3', DATABASE_URL: 'postgres://x/y' }).webConcurrency).toBe(3);
  });

  it('refuses anything else at start, saying what it takes', () => {
    for (const value of ['0', '-2', '1.5', '2x', 'AUTO', 'max', '65', '1e1'])
      expect(() => webConcurrencyOf(value), value).toThrow(`WEB_CONCURRENCY must be auto or a whole number of worker processes from 1 to 64, got "${value}"`);
    expect(() => readEnv({ WEB_CONCURRENCY: 'many' })).toThrow(/WEB_CONCURRENCY/);
  });
});

describe('which storage several workers can share', () => {
  const env = (source: Record<string, string>) => readEnv(source);

  it('serves PostgreSQL with any number of workers', () => {
    expect(workersRefusal(8, env({ DATABASE_URL: 'postgres://x/y' }))).toBeNull();
  });

  it('refuses the embedded default and the memory demo, whose database lives in one process', () => {
    expect(workersRefusal(2, env({}))).toMatch(/WEB_CONCURRENCY=2 needs DATABASE_URL: the embedded default \(PGlite\)/);
    expect(workersRefusal(2, env({ CATALOGUE_STORAGE: 'memory' }))).toMatch(/needs DATABASE_URL/);
    expect(workersRefusal(2, env({ DATABASE_URL: 'postgres://x/y', CATALOGUE_STORAGE: 'memory' }))).toMatch(/cannot serve CATALOGUE_STORAGE=memory/);
  });

  it('leaves one process alone, whatever its storage', () => {
    expect(workersRefusal(1, env({}))).toBeNull();
    expect(workersRefusal(1, env({ CATALOGUE_STORAGE: 'memory' }))).toBeNull();
  });
});
