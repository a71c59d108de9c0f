import { describe, expect, it } from 'vitest';
import { readEnv } from './env.js';

describe('readEnv', () => {
  it('chooses storage from CATALOGUE_STORAGE and DATABASE_URL', () => {
    expect(readEnv({}).storage).toBe('memory');
    expect(readEnv({ DATABASE_URL: 'postgres://x/y' }).storage).toBe('postgres');
    expect(readEnv({ DATABASE_URL: 'postgres://x/y', CATALOGUE_STORAGE: 'memory' }).storage).toBe('memory');
    expect(() => readEnv({ CATALOGUE_STORAGE: 'postgres' })).toThrow(/needs DATABASE_URL/);
    expect(() => readEnv({ CATALOGUE_STORAGE: 'sqlite' })).toThrow(/memory or postgres/);
  });

  it('keeps the defaults of the configuration table', () => {
    const env = readEnv({ PORT: '9000' });
    expect(env).toMatchObject({
      port: 9000,
      baseUrl: 'http://localhost:9000',
      publicRateLimitPerMinute: 60,
      trustProxy: null,
      logLevel: 'info',
      dataDir: './.data',
    });
    expect(() => readEnv({ PORT: '-1' })).toThrow(/PORT/);
  });

  it('refuses a BASE_URL that is not an absolute http(s) URL, and a short ADMIN_TOKEN, without echoing the token', () => {
    for (const value of ['/', 'catalogue.example.com', 'ftp://catalogue.example.com', 'https://']) {
      expect(() => readEnv({ BASE_URL: value }), value).toThrow(/BASE_URL must be an absolute http\(s\) URL/);
    }
    expect(readEnv({ BASE_URL: 'https://api.example.com/' })).toMatchObject({ baseUrl: 'https://api.example.com', publicOrigin: 'https://api.example.com' });
    expect(() => readEnv({ ADMIN_TOKEN: 'short-secret' })).toThrow(/ADMIN_TOKEN must be at least 32 characters \(it has 12\)/);
    expect(() => readEnv({ ADMIN_TOKEN: 'short-secret' })).not.toThrow(/short-secret/);
    expect(readEnv({ ADMIN_TOKEN: 'x'.repeat(32) }).adminToken).toBe('x'.repeat(32));
  });
});

describe('DATABASE_REPLICA_URLS', () => {
  const primary = 'postgres://app@db-primary:5432/catalogue';

  it('lists the replicas, trimmed, and is empty when unset', () => {
    expect(readEnv({ DATABASE_URL: primary }).databaseReplicaUrls).toEqual([]);
    expect(readEnv({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: ' postgres://r1/catalogue , postgresql://r2:5433/catalogue,' }).databaseReplicaUrls).toEqual(
      ['postgres://r1/catalogue', 'postgresql://r2:5433/catalogue'],
    );
  });

  it('refuses replicas without a primary, and a URL that is not postgres://, without echoing its password', () => {
    expect(() => readEnv({ DATABASE_REPLICA_URLS: 'postgres://r1/catalogue' })).toThrow(/needs DATABASE_URL/);
    expect(() => readEnv({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: 'mysql://u:secret@r1/catalogue' })).toThrow(/not a postgres:\/\/ URL/);
    expect(() => readEnv({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: 'mysql://u:secret@r1/catalogue' })).not.toThrow(/secret/);
  });
});

describe('CORS_ORIGINS', () => {
  it('is empty by default; lists origins, trimmed and without a trailing slash; * alone', () => {
    expect(readEnv({}).corsOrigins).toEqual([]);
    expect(readEnv({ CORS_ORIGINS: ' https://app.example/ , http://localhost:3000' }).corsOrigins).toEqual(['https://app.example', 'http://localhost:3000']);
    expect(readEnv({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
  });

  it.each([
    ['null', /"null" cannot be allowed/],
    ['*, https://app.example', /list no others/],
    ['https://app.example/path', /not an origin/],
    ['HTTPS://App.Example', /not an origin/],
    ['app.example', /not an origin/],
    ['ftp://app.example', /not an origin/],
  ])('refuses %j', (value, error) => {
    expect(() => readEnv({ CORS_ORIGINS: value })).toThrow(error);
  });
});
