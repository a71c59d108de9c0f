/**
 * The cutover's signals on an answer (RFC 8594 and the interface spec's versioning rules):
 * `Deprecation: true`, `Sunset: <http-date>` and `Link: <…>; rel="successor-version"` from 30
 * days before the v1 sunset, and a 308 to the v2 path from the sunset on.
 */
export interface DeprecationNotice {
  /** The URL called. */
  url: string;
  /** When v1 stops answering this call (the `Sunset` header), or null when not given. */
  sunset: Date | null;
  /** Where to go instead (`rel="successor-version"`), or null. */
  successor: string | null;
  /** The status of the answer that carried the notice (308 when the call was redirected). */
  status: number;
}

/** The answer's deprecation notice, or null when it carries none. */
export function deprecationOf(response: Response, url: string): DeprecationNotice | null {
  const deprecation = response.headers.get('deprecation');
  const sunsetHeader = response.headers.get('sunset');
  if (deprecation === null && sunsetHeader === null) return null;
  const sunset = sunsetHeader === null ? null : new Date(sunsetHeader);
  const successor = /<([^>]+)>\s*;\s*rel="?successor-version"?/i.exec(response.headers.get('link') ?? '')?.[1] ?? null;
  return { url, sunset: sunset && !Number.isNaN(sunset.getTime()) ? sunset : null, successor, status: response.status };
}
