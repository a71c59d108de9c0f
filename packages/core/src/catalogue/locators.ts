/** Locators of an agent: where else it lives (Discogs, MusicBrainz, Bandcamp, Spotify, its website). */
import type { AgentKind, Locator } from '../schemas/records.js';

export interface LocatorSource {
  kind: AgentKind;
  /** Discogs id of an artist or label; null for festivals. */
  discogsId: number | null;
  mbid?: string | null;
  spotifyId?: string | null;
  urls: string[];
  /** The url of the artist's Bandcamp row, when it has one. */
  bandcampUrl?: string | null;
}

function hostOf(url: string): string | null {
  if (!/^https?:\/\//i.test(url.trim())) return null;
  try {
    return new URL(url.trim()).hostname.toLowerCase();
  } catch {
    return null;
  }
}

function isBandcampHost(host: string): boolean {
  return host.endsWith('.bandcamp.com') && host !== 'www.bandcamp.com';
}

/** Hosts that have their own locator source, so they are never the "website". */
function isKnownSourceHost(host: string): boolean {
  const bare = host.replace(/^www\./, '');
  return bare === 'discogs.com' || bare === 'musicbrainz.org' || bare === 'bandcamp.com' || isBandcampHost(host) || bare.endsWith('spotify.com');
}

/**
 * In this order: discogs (artist/label), musicbrainz (when an mbid is known), bandcamp (the
 * Bandcamp row's url, else the first *.bandcamp.com url), spotify (when an id is known),
 * website (the first remaining http(s) url whose host is none of those sources).
 */
export function locatorsOf(source: LocatorSource): Locator[] {
  const locators: Locator[] = [];
  if (source.discogsId !== null && source.kind !== 'festival') {
    const id = String(source.discogsId);
    locators.push({ source: 'discogs', id, url: `https://www.discogs.com/${source.kind}/${id}` });
  }
  if (source.mbid) {
    locators.push({ source: 'musicbrainz', id: source.mbid, url: `https://musicbrainz.org/${source.kind === 'label' ? 'label' : 'artist'}/${source.mbid}` });
  }
  const bandcampUrl =
    source.bandcampUrl ??
    source.urls.find((url) => {
      const host = hostOf(url);
      return host !== null && isBandcampHost(host);
    });
  const bandcampHost = bandcampUrl ? hostOf(bandcampUrl) : null;
  if (bandcampUrl && bandcampHost) locators.push({ source: 'bandcamp', id: bandcampHost, url: bandcampUrl.trim() });
  if (source.spotifyId) {
    locators.push({ source: 'spotify', id: source.spotifyId, url: `https://open.spotify.com/artist/${source.spotifyId}` });
  }
  for (const url of source.urls) {
    const host = hostOf(url);
    if (host && !isKnownSourceHost(host)) {
      locators.push({ source: 'website', id: host.replace(/^www\./, ''), url: url.trim() });
      break;
    }
  }
  return locators;
}

/** The lowercase host of a Bandcamp url, or null when the url is not a *.bandcamp.com one. */
export function bandcampHostOf(url: string): string | null {
  const host = hostOf(url);
  return host !== null && isBandcampHost(host) ? host : null;
}

/** Release urls are matched without a trailing slash and with a lowercase host. */
export function releaseUrlKey(url: string): string {
  const trimmed = url
    .trim()
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '');
  return trimmed.replace(/^(https?:\/\/[^/]+)/i, (origin) => origin.toLowerCase()).replace(/^http:/, 'https:');
}
