import { describe, expect, it } from 'vitest';
import { locatorsOf } from './locators.js';

describe('locatorsOf', () => {
  it('lists discogs, musicbrainz, bandcamp, spotify and the first other website in that order', () => {
    const locators = locatorsOf({
      kind: 'artist',
      discogsId: 10,
      mbid: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      spotifyId: '0123456789abcdefghijkl',
      urls: ['https://www.discogs.com/artist/10', 'https://open.spotify.com/artist/x', 'http://www.nova.example/', 'https://second.example'],
      bandcampUrl: 'https://nova.bandcamp.com',
    });
    expect(locators).toEqual([
      { source: 'discogs', id: '10', url: 'https://www.discogs.com/artist/10' },
      { source: 'musicbrainz', id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', url: 'https://musicbrainz.org/artist/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee' },
      { source: 'bandcamp', id: 'nova.bandcamp.com', url: 'https://nova.bandcamp.com' },
      { source: 'spotify', id: '0123456789abcdefghijkl', url: 'https://open.spotify.com/artist/0123456789abcdefghijkl' },
      { source: 'website', id: 'nova.example', url: 'http://www.nova.example/' },
    ]);
  });

  it('finds a Bandcamp link among the urls and skips non-http ones', () => {
    const locators = locatorsOf({ kind: 'label', discogsId: 5, urls: ['ftp://x.example', 'https://label.bandcamp.com/music'] });
    expect(locators.map((l) => l.source)).toEqual(['discogs', 'bandcamp']);
    expect(locators[0]?.url).toBe('https://www.discogs.com/label/5');
  });
});
