import { describe, expect, it } from 'vitest';
import { readEnv } from './env.js';

describe('readEnv: the limit store behind Redis Sentinel (issue 27)', () => {
  it('reads REDIS_SENTINELS as host:port pairs with the primary’s name, the sentinels’ password and the data nodes’', () => {
    const env = readEnv({
      REDIS_SENTINELS: ' 10.0.0.1:26379, sentinel-b:26380,[::1]:26381 ',
      REDIS_SENTINEL_NAME: 'limits',
      REDIS_SENTINEL_PASSWORD: 's3cret',
      REDIS_PASSWORD: 'data-s3cret',
    });
    expect(env.redisSentinels).toEqual([
      { host: '10.0.0.1', port: 26379 },
      { host: 'sentinel-b', port: 26380 },
      { host: '::1', port: 26381 },
    ]);
    expect([env.redisSentinelName, env.redisSentinelPassword, env.redisPassword, env.redisUrl]).toEqual(['limits', 's3cret', 'data-s3cret', null]);
  });

  it('is empty without REDIS_SENTINELS', () => {
    expect(readEnv({ REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({
      redisSentinels: [],
      redisSentinelName: null,
      redisSentinelPassword: null,
      redisPassword: null,
    });
  });

  it('refuses REDIS_URL beside REDIS_SENTINELS, a missing name, a name without sentinels, and entries that are not host:port', () => {
    expect(() => readEnv({ REDIS_URL: 'redis://x:6379', REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_NAME: 'limits' })).toThrow(
      'REDIS_URL and REDIS_SENTINELS both name the limit store: set one of them',
    );
    expect(() => readEnv({ REDIS_SENTINELS: 'a:26379' })).toThrow(/REDIS_SENTINELS needs REDIS_SENTINEL_NAME/);
    expect(() => readEnv({ REDIS_SENTINEL_NAME: 'limits' })).toThrow(/need REDIS_SENTINELS/);
    expect(() => readEnv({ REDIS_URL: 'redis://x:6379', REDIS_PASSWORD: 'p' })).toThrow(/REDIS_URL carries its own password/);
    expect(() => readEnv({ REDIS_SENTINELS: 'a', REDIS_SENTINEL_NAME: 'limits' })).toThrow('REDIS_SENTINELS: not host:port: "a"');
    expect(() => readEnv({ REDIS_SENTINELS: 'a:99999', REDIS_SENTINEL_NAME: 'limits' })).toThrow(/not host:port/);
  });
});
