import { describe, expect, it } from 'vitest';
import { clientIpFrom } from './client-ip.js';

describe('the shared host pieces', () => {
  it('takes the client IP from X-Forwarded-For only behind a trusted proxy', () => {
    expect(clientIpFrom('198.51.100.1, 10.0.0.1', true, '10.0.0.2')).toBe('198.51.100.1');
    expect(clientIpFrom('198.51.100.1', false, '10.0.0.2')).toBe('10.0.0.2');
    expect(clientIpFrom(null, true, undefined)).toBe('unknown');
  });
});
