/**
 * The client IP behind proxies (TRUST_PROXY, docs/decisions.md §9). X-Forwarded-For is read from
 * the right: each proxy appends the address it saw, so only the entries our own proxies added can
 * be believed, and the client writes whatever it likes on the left. The walk — the socket's peer
 * first, then the header's entries right to left, stopping at the first address that is not a
 * trusted proxy — is proxy-addr's (Express's `trust proxy`), a maintained implementation of the
 * IPv4/IPv6 and CIDR matching (IPv4-mapped IPv6 peers included) rather than ours.
 */
import proxyAddr from 'proxy-addr';

/** Whether the address `hop` steps from the server (0: the socket's peer) is a proxy we trust. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * What a host is told to trust: nothing (`false`, `null`), the one proxy in front of it (`true`),
 * or a compiled TRUST_PROXY (`trustProxyOf`).
 */
export type TrustProxy = boolean | ProxyTrust | null;

/** The first `count` hops (the peer, then the header's rightmost entries) are proxies. */
function hops(count: number): ProxyTrust {
  return (_address, hop) => hop < count;
}

const ONE_PROXY = hops(1);

/**
 * TRUST_PROXY as Express reads `trust proxy`, except that `true` means one proxy in front (the
 * rightmost X-Forwarded-For entry is the client), never "believe the leftmost":
 * - unset, empty, `false` or `0`: trust nothing, the socket's peer is the client;
 * - `true`: one proxy; `<n>`: n proxies in front, the n-th entry from the right is the client;
 * - a comma-separated list of IPs and CIDRs (`10.0.0.0/8, 192.0.2.7, ::1`; also proxy-addr's
 *   names `loopback`, `linklocal`, `uniquelocal`): trust exactly those addresses, and take the
 *   rightmost address that is none of them.
 * Anything else is refused with a message naming the variable.
 */
export function trustProxyOf(value: string | undefined): ProxyTrust | null {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return null;
  if (text === 'true') return ONE_PROXY;
  if (/^\d+$/.test(text)) {
    const count = Number(text);
    if (count > 64) throw new Error(`TRUST_PROXY: ${count} proxies in front is not a real chain (at most 64)`);
    return hops(count);
  }
  const listed = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  try {
    return proxyAddr.compile(listed);
  } catch (error) {
    throw new Error(
      `TRUST_PROXY must be true, false, a number of proxies, or a comma-separated list of proxy IPs/CIDRs: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The client IP as the service should see it: the rightmost address not added by a trusted proxy, else the socket's peer. */
export function clientIpFrom(forwardedFor: string | null | undefined, trust: TrustProxy, peer: string | null | undefined): string {
  const compiled = trust === true ? ONE_PROXY : trust || null;
  if (!compiled || !forwardedFor) return peer || 'unknown';
  // proxy-addr reads a node:http request's header and socket; these two fields are all it reads.
  const request = { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: peer ?? undefined } };
  return proxyAddr(request as unknown as Parameters<typeof proxyAddr>[0], compiled) || 'unknown';
}
