import { describe, expect, it } from 'vitest';
import { bandcampHostOf, locatorsOf, releaseUrlKey } from './locators.js';

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

const sources = (urls: string[], extra: Partial<Parameters<typeof locatorsOf>[0]> = {}) =>
  locatorsOf({ kind: 'artist', discogsId: null, urls, ...extra }).map((l) => `${l.source} ${l.id} ${l.url}`);

describe('locatorsOf: the hosts', () => {
  it('a festival has no Discogs locator; a label’s MusicBrainz link is a label link', () => {
    expect(sources([], { kind: 'festival', discogsId: 3 })).toEqual([]);
    expect(sources([], { kind: 'label', discogsId: 0 })).toEqual(['discogs 0 https://www.discogs.com/label/0']);
    expect(sources([], { kind: 'label', mbid: 'm-1' })).toEqual(['musicbrainz m-1 https://musicbrainz.org/label/m-1']);
    expect(sources([], { kind: 'festival', mbid: 'm-2' })).toEqual(['musicbrainz m-2 https://musicbrainz.org/artist/m-2']);
    expect(sources([], { mbid: null, spotifyId: null })).toEqual([]);
  });

  it('no source host is ever the website, with or without www.', () => {
    expect(
      sources([
        'https://discogs.com/artist/1',
        'https://www.discogs.com/artist/1',
        'https://musicbrainz.org/artist/x',
        'https://www.musicbrainz.org/artist/x',
        'https://bandcamp.com/',
        'https://www.bandcamp.com/',
        'https://open.spotify.com/artist/y',
        'https://spotify.com/',
        'HTTPS://Label.Bandcamp.COM/album/x',
        'https://site.example/path',
      ]),
    ).toEqual(['bandcamp label.bandcamp.com HTTPS://Label.Bandcamp.COM/album/x', 'website site.example https://site.example/path']);
  });

  it('bandcamp.com itself (or www.) is not an artist’s Bandcamp page', () => {
    expect(sources(['https://bandcamp.com/', 'https://www.bandcamp.com/tag/x'])).toEqual([]);
    expect(sources(['https://evilbandcamp.com/'])).toEqual(['website evilbandcamp.com https://evilbandcamp.com/']);
  });

  it('the Bandcamp row’s url wins over one in the urls; a url that is no url is skipped', () => {
    expect(sources(['https://a.bandcamp.com'], { bandcampUrl: ' https://b.bandcamp.com/ ' })).toEqual(['bandcamp b.bandcamp.com https://b.bandcamp.com/']);
    expect(sources(['https://a.bandcamp.com'], { bandcampUrl: 'not a url' })).toEqual([]);
    expect(sources(['https://a.bandcamp.com'], { bandcampUrl: null })).toEqual(['bandcamp a.bandcamp.com https://a.bandcamp.com']);
  });

  it('only http(s) urls count, trimmed; the first website only', () => {
    expect(sources(['  https://www.one.example/  ', 'https://two.example'])).toEqual(['website one.example https://www.one.example/']);
    expect(sources(['mailto:a@b.example', 'javascript:alert(1)', 'www.bare.example', 'http://', 'HTTP://Up.Example/x'])).toEqual([
      'website up.example HTTP://Up.Example/x',
    ]);
  });
});

describe('bandcampHostOf', () => {
  it('the lowercase host of a *.bandcamp.com url, else null', () => {
    expect(bandcampHostOf(' https://Nova.Bandcamp.com/album/x ')).toBe('nova.bandcamp.com');
    expect(bandcampHostOf('http://nova.bandcamp.com')).toBe('nova.bandcamp.com');
    expect(bandcampHostOf('https://www.bandcamp.com/')).toBeNull();
    expect(bandcampHostOf('https://bandcamp.com/')).toBeNull();
    expect(bandcampHostOf('https://nova.example/')).toBeNull();
    expect(bandcampHostOf('nova.bandcamp.com')).toBeNull();
    expect(bandcampHostOf('https://[bad')).toBeNull();
  });
});

describe('releaseUrlKey', () => {
  it('no query, fragment or trailing slash; lowercase origin; https', () => {
    expect(releaseUrlKey(' HTTP://Nova.Bandcamp.COM/album/Moments-In-Time/?from=x#t=1 ')).toBe('https://nova.bandcamp.com/album/Moments-In-Time');
    expect(releaseUrlKey('https://nova.bandcamp.com/album/x//')).toBe('https://nova.bandcamp.com/album/x');
    expect(releaseUrlKey('https://nova.bandcamp.com/track/a#b')).toBe('https://nova.bandcamp.com/track/a');
    expect(releaseUrlKey('https://nova.bandcamp.com/track/a?b')).toBe('https://nova.bandcamp.com/track/a');
    expect(releaseUrlKey('ftp://Host/x')).toBe('ftp://Host/x');
    expect(releaseUrlKey('xhttp://Host/x')).toBe('xhttp://Host/x');
  });
});
