import { describe, expect, it } from 'vitest';
import { clientIpFrom, trustProxyOf } from './client-ip.js';

/** The client IP a host sees for this X-Forwarded-For and peer under TRUST_PROXY=`setting`. */
const ipUnder = (setting: string, forwardedFor: string | null, peer = '10.0.0.2') => clientIpFrom(forwardedFor, trustProxyOf(setting), peer);

describe('the client IP behind proxies (TRUST_PROXY)', () => {
  it('trusts nothing unless told: the socket peer is the client', () => {
    for (const setting of ['', 'false', '0']) expect(ipUnder(setting, '198.51.100.1, 10.0.0.1')).toBe('10.0.0.2');
    expect(clientIpFrom('198.51.100.1', false, '10.0.0.2')).toBe('10.0.0.2');
    expect(clientIpFrom(null, true, undefined)).toBe('unknown');
  });

  it('true is one proxy in front: the rightmost entry, never the leftmost the client wrote', () => {
    expect(ipUnder('true', '198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
    expect(ipUnder('true', '203.0.113.9')).toBe('203.0.113.9');
    // A client rotating a first hop it wrote itself stays one client.
    expect(ipUnder('true', '1.2.3.4, 203.0.113.9')).toBe(ipUnder('true', '5.6.7.8, 203.0.113.9'));
    expect(clientIpFrom('1.2.3.4, 203.0.113.9', true, '10.0.0.2')).toBe('203.0.113.9');
    // No header: the proxy itself is all there is.
    expect(ipUnder('true', null)).toBe('10.0.0.2');
  });

  it('<n> is n proxies: the n-th entry from the right', () => {
    expect(ipUnder('2', '6.6.6.6, 198.51.100.1, 10.0.0.1')).toBe('198.51.100.1');
    expect(ipUnder('3', '6.6.6.6, 198.51.100.1, 10.0.0.1')).toBe('6.6.6.6');
    // Fewer entries than proxies: the leftmost there is.
    expect(ipUnder('5', '198.51.100.1, 10.0.0.1')).toBe('198.51.100.1');
  });

  it('a list of IPs and CIDRs trusts exactly those: the rightmost address that is none of them', () => {
    expect(ipUnder('10.0.0.0/8', '6.6.6.6, 198.51.100.1, 10.0.0.1')).toBe('198.51.100.1');
    expect(ipUnder('10.0.0.2, 192.0.2.0/24', '6.6.6.6, 198.51.100.1, 192.0.2.44')).toBe('198.51.100.1');
    // A peer that is not a trusted proxy is the client, whatever it forwards.
    expect(ipUnder('192.0.2.0/24', '6.6.6.6', '203.0.113.5')).toBe('203.0.113.5');
    // IPv6 and IPv4-mapped peers (Node's dual-stack sockets report ::ffff:a.b.c.d).
    expect(ipUnder('2001:db8::/32', '198.51.100.1, 2001:db8::7', '2001:db8::1')).toBe('198.51.100.1');
    expect(ipUnder('127.0.0.1', '198.51.100.1', '::ffff:127.0.0.1')).toBe('198.51.100.1');
    expect(ipUnder('loopback', '198.51.100.1', '127.0.0.1')).toBe('198.51.100.1');
    // An entry that is no address is not a proxy of ours: it is taken as the client, never skipped.
    expect(ipUnder('10.0.0.0/8', '198.51.100.1, garbage, 10.0.0.1')).toBe('garbage');
  });

  it('refuses a TRUST_PROXY it cannot read, naming the variable', () => {
    expect(() => trustProxyOf('yes')).toThrow(/TRUST_PROXY/);
    expect(() => trustProxyOf('10.0.0.0/40')).toThrow(/TRUST_PROXY/);
    expect(() => trustProxyOf('1000')).toThrow(/TRUST_PROXY/);
  });
});
