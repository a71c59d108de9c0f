import { describe, expect, it } from 'vitest';
import { readEnv } from './env.js';

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
