/**
 * A small hand-made catalogue for the conformance suite: accented and colliding names (slugs),
 * a digits-only name, parent/sub labels, extra-artist credits, two festivals and Bandcamp
 * series where artist 10 grows steeply in the last 30 days and label 100 picked it early.
 */
import type { BandcampObservation, CatalogueData, MasterRow, ReleaseRow } from '@catalogue/core';
import { artistRow } from '../support/rows.js';

const artist = artistRow;

function master(master_id: number, title: string, year: number | null, artists: Array<[number, string]>, genres: string[], styles: string[]): MasterRow {
  return {
    master_id,
    title,
    year,
    main_release_id: master_id * 10,
    artists: artists.map(([discogs_id, name], i) => ({ discogs_id, name, anv: null, join: i < artists.length - 1 ? '&' : null, role: null })),
    genres,
    styles,
    data_quality: 'Correct',
  };
}

function release(
  release_id: number,
  master_id: number,
  main: boolean,
  released: string | null,
  country: string | null,
  formats: string[],
  labels: Array<[number | null, string, string]>,
  extra: number[] = [],
): ReleaseRow {
  return {
    release_id,
    master_id,
    is_main_release: main,
    title: `Release ${release_id}`,
    artists: [],
    extra_artists: extra.map((id) => ({ discogs_id: id, name: `Credit ${id}`, anv: null, join: null, role: 'Remix' })),
    labels: labels.map(([discogs_id, name, catno]) => ({ discogs_id, name, catno })),
    formats: formats.map((name) => ({ name, qty: 1, descriptions: [] })),
    genres: [],
    styles: [],
    country,
    released,
    data_quality: 'Correct',
  };
}

/** Weekly observations ending on 2026-06-29; `metricAt(weeksBeforeEnd)` gives followers. */
function series(weeks: number, followersAt: (weeksBeforeEnd: number) => number): BandcampObservation[] {
  const end = Date.parse('2026-06-29T00:00:00Z');
  const points: BandcampObservation[] = [];
  for (let back = weeks - 1; back >= 0; back--) {
    const followers = Math.round(followersAt(back));
    points.push({ date: new Date(end - back * 7 * 86_400_000).toISOString().slice(0, 10), followers, supporters: Math.floor(followers / 5) });
  }
  return points;
}

export function conformanceFixture(): CatalogueData {
  return {
    artists: [
      artist(10, 'Björk Nova', {
        mbid: '0f7a6c2e-1111-4222-8333-944455556666',
        spotify_id: '4abcDEFghiJKLmnoPQRstu',
        urls: ['https://bjorknova.bandcamp.com', 'https://www.bjorknova.example/'],
        aliases: [{ discogs_id: 11, name: 'Bjork Nova' }],
      }),
      artist(11, 'Bjork Nova', { profile: 'Same name once folded: slug collision.' }),
      artist(12, '808', {
        members: [
          { discogs_id: 13, name: 'Vince Watson' },
          { discogs_id: null, name: 'Someone' },
        ],
      }),
      artist(13, 'Vince Watson', { groups: [{ discogs_id: 12, name: '808' }], urls: ['http://vincewatson.example'] }),
      artist(14, 'Ｆｕｌｌ Width', {}),
    ],
    labels: [
      {
        discogs_id: 100,
        name: 'Nova Records',
        profile: 'Tastemaker.',
        contact_info: null,
        data_quality: 'Correct',
        urls: ['https://novarecords.bandcamp.com'],
        parent: null,
        sublabels: [{ discogs_id: 101, name: 'Nova Dub' }],
      },
      {
        discogs_id: 101,
        name: 'Nova Dub',
        profile: null,
        contact_info: null,
        data_quality: null,
        urls: [],
        parent: { discogs_id: 100, name: 'Nova Records' },
        sublabels: [],
      },
      {
        discogs_id: 102,
        name: 'Bio Rhythm',
        profile: null,
        contact_info: 'mail',
        data_quality: null,
        urls: ['https://biorhythm.example'],
        parent: null,
        sublabels: [],
      },
    ],
    masters: [
      master(1, 'Moments In Time', 2002, [[13, 'Vince Watson']], ['Electronic'], ['Techno', 'Tech House']),
      master(2, 'Nova Dawn', 2025, [[10, 'Björk Nova']], ['Electronic'], ['Ambient']),
      master(
        3,
        'Nova Dusk',
        2026,
        [
          [10, 'Björk Nova'],
          [13, 'Vince Watson'],
        ],
        ['Electronic', 'Jazz'],
        ['Ambient', 'Fusion'],
      ),
      master(4, 'Eight Oh Eight', null, [[12, '808']], ['Hip Hop'], ['Boom Bap']),
      master(5, 'Time Moments', 1999, [[11, 'Bjork Nova']], ['Rock'], ['Shoegaze']),
      master(6, 'Nova Dub Plates', 2024, [[13, 'Vince Watson']], ['Electronic', 'Reggae'], ['Dub']),
      master(7, 'Full Width Tones', 2020, [[14, 'Ｆｕｌｌ Width']], ['Electronic'], ['Minimal']),
    ],
    releases: [
      release(10, 1, true, '2002-03-00', 'UK', ['Vinyl', 'Vinyl'], [[102, 'Bio Rhythm', 'BIO 001']]),
      release(11, 1, false, '2003', 'US', ['CD'], [[102, 'Bio Rhythm', 'BIO 001CD']], [12]),
      release(20, 2, true, '2025-01-15', 'IS', ['File'], [[100, 'Nova Records', 'NOVA1']]),
      release(
        30,
        3,
        true,
        '2026-02-01',
        'IS',
        ['Vinyl', 'File'],
        [
          [100, 'Nova Records', 'NOVA2'],
          [101, 'Nova Dub', 'ND1'],
        ],
        [14],
      ),
      release(40, 4, true, null, null, ['Cassette'], [[null, 'Self-Released', 'none']]),
      release(50, 5, true, '1999', 'US', ['CD'], [[102, 'Bio Rhythm', 'BIO 050']]),
      release(
        60,
        6,
        true,
        '2024-05-01',
        'JM',
        ['Vinyl'],
        [
          [101, 'Nova Dub', 'ND0'],
          [100, 'Nova Records', 'NOVA0'],
        ],
      ),
      release(70, 7, true, '2020-10-10', 'DE', ['File'], [[102, 'Bio Rhythm', 'BIO 070']]),
      release(61, 6, false, '2024-06-01', 'UK', ['Vinyl'], [[101, 'Nova Dub', 'ND0R']], [10]),
    ],
    festivals: [
      {
        festival_id: 1,
        name: 'Lowlands Drift',
        country: 'NL',
        city: 'Biddinghuizen',
        url: 'https://lowlandsdrift.example',
        genres: ['Electronic', 'Rock'],
        editions: [
          {
            year: 2025,
            starts_on: '2025-08-15',
            lineup: [
              { artist_discogs_id: 10, billing: 'support' },
              { artist_discogs_id: 13, billing: 'headliner' },
              { artist_discogs_id: 999, billing: 'main' },
            ],
          },
          {
            year: 2026,
            starts_on: '2026-06-01',
            lineup: [
              { artist_discogs_id: 10, billing: 'main' },
              { artist_discogs_id: 11, billing: 'support' },
              { artist_discogs_id: 12, billing: 'support' },
            ],
          },
        ],
      },
      {
        festival_id: 2,
        name: '2000',
        country: null,
        city: null,
        url: null,
        genres: [],
        editions: [{ year: 2024, starts_on: '2024-07-01', lineup: [{ artist_discogs_id: 13, billing: 'main' }] }],
      },
    ],
    bandcamp: [
      {
        artist_discogs_id: 10,
        url: 'https://bjorknova.bandcamp.com',
        observations: series(30, (back) => (back >= 5 ? 200 + (30 - back) : 3000 - back * 300)),
        releases: [
          { title: 'Nova Dawn', url: 'https://bjorknova.bandcamp.com/album/nova-dawn', released: '2025-01-15', tags: ['ambient', 'electronic'] },
          { title: 'Nova Dusk', url: 'https://bjorknova.bandcamp.com/album/nova-dusk', released: '2026-02-01', tags: ['ambient'] },
        ],
      },
      {
        artist_discogs_id: 13,
        url: 'https://vincewatson.bandcamp.com',
        observations: series(30, () => 500),
        releases: [{ title: 'Moments', url: 'https://vincewatson.bandcamp.com/album/moments', released: '2002-03-01', tags: ['techno', 'Detroit'] }],
      },
      { artist_discogs_id: 12, url: 'https://eightoheight.bandcamp.com', observations: series(30, (back) => 80 + (30 - back)), releases: [] },
      { artist_discogs_id: 14, url: 'https://fullwidth.bandcamp.com', observations: series(30, () => 300), releases: [] },
      {
        artist_discogs_id: 11,
        url: 'https://bjork-nova.bandcamp.com',
        observations: series(14, (back) => 60 + (14 - back) * 3),
        releases: [{ title: 'Time', url: 'https://bjork-nova.bandcamp.com/album/time', released: null, tags: ['shoegaze'] }],
      },
    ],
  };
}
