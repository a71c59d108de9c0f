/** The client IP as the service should see it: the first X-Forwarded-For hop behind a trusted proxy (TRUST_PROXY=true), else the socket's peer. */
export function clientIpFrom(forwardedFor: string | null | undefined, trustProxy: boolean, peer: string | null | undefined): string {
  if (trustProxy && forwardedFor) {
    const comma = forwardedFor.indexOf(',');
    const first = (comma === -1 ? forwardedFor : forwardedFor.slice(0, comma)).trim();
    if (first) return first;
  }
  return peer || 'unknown';
}
