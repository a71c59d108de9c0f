/** A small hand-made catalogue with known values, for route tests of the core. */
import type { CatalogueData, ReleaseRow } from '@catalogue/core';
import { artistRow } from './rows.js';

function release(
  id: number,
  masterId: number,
  title: string,
  artist: [number, string],
  label: [number, string, string],
  released: string,
  country = 'UK',
): ReleaseRow {
  return {
    release_id: id,
    master_id: masterId,
    is_main_release: true,
    title,
    artists: [{ discogs_id: artist[0], name: artist[1], anv: null, join: null, role: null }],
    extra_artists: [],
    labels: [{ discogs_id: label[0], name: label[1], catno: label[2] }],
    formats: [{ name: 'Vinyl', qty: 1, descriptions: ['12"'] }],
    genres: ['Electronic'],
    styles: ['Techno'],
    country,
    released,
    data_quality: 'Correct',
  };
}

function weekly(from: string, weeks: number, start: number, grow: (week: number) => number) {
  const out = [];
  const t0 = new Date(`${from}T00:00:00Z`).getTime();
  let followers = start;
  for (let w = 0; w < weeks; w++) {
    followers += grow(w);
    out.push({ date: new Date(t0 + w * 7 * 86_400_000).toISOString().slice(0, 10), followers, supporters: Math.floor(followers / 10) });
  }
  return out;
}

export function fixtureData(): CatalogueData {
  const artist = artistRow;
  const label = (discogs_id: number, name: string) => ({
    discogs_id,
    name,
    profile: null,
    contact_info: null,
    data_quality: 'Correct',
    urls: [],
    parent: null,
    sublabels: [],
  });
  return {
    artists: [
      { ...artist(3225, 'Vince Watson'), real_name: 'Vincent Watson', mbid: '0a3b5c7d-1111-4222-8333-944455556666' },
      artist(1, 'The Persuader'),
      artist(7, 'Marla Vance'),
      { ...artist(9, 'Sable & Ortiz'), urls: ['https://sableortiz.example'] },
    ],
    labels: [label(5, 'Svek'), label(1, 'Planet E')],
    masters: [
      {
        master_id: 113,
        title: 'Moments In Time',
        year: 2002,
        main_release_id: 116925,
        artists: [{ discogs_id: 3225, name: 'Vince Watson', anv: null, join: null, role: null }],
        genres: ['Electronic'],
        styles: ['Techno', 'Tech House'],
        data_quality: 'Correct',
      },
      {
        master_id: 1660109,
        title: 'Stockholm',
        year: 1999,
        main_release_id: 1,
        artists: [{ discogs_id: 1, name: 'The Persuader', anv: null, join: null, role: null }],
        genres: ['Electronic'],
        styles: ['Deep House'],
        data_quality: 'Needs Vote',
      },
      {
        master_id: 500,
        title: 'Velvet Hours',
        year: 2021,
        main_release_id: 900,
        artists: [{ discogs_id: 7, name: 'Marla Vance', anv: null, join: null, role: null }],
        genres: ['Electronic'],
        styles: ['House'],
        data_quality: 'Correct',
      },
      {
        master_id: 501,
        title: 'Night Drive',
        year: null,
        main_release_id: 901,
        artists: [{ discogs_id: 7, name: 'Marla Vance', anv: null, join: null, role: null }],
        genres: ['Rock'],
        styles: ['Post-Punk'],
        data_quality: 'Correct',
      },
    ],
    releases: [
      release(116925, 113, 'Moments In Time', [3225, 'Vince Watson'], [1, 'Planet E', 'PE-113'], '2002-04-01'),
      { ...release(1, 1660109, 'Stockholm', [1, 'The Persuader'], [5, 'Svek', 'SK032'], '1999-03-00', 'Sweden'), styles: ['Deep House'] },
      release(900, 500, 'Velvet Hours', [7, 'Marla Vance'], [5, 'Svek', 'SK100'], '2021-05-07', 'Germany'),
      {
        ...release(901, 501, 'Night Drive', [7, 'Marla Vance'], [5, 'Svek', 'SK101'], '2026-03-01', 'Germany'),
        formats: [{ name: 'CD', qty: 1, descriptions: ['Album'] }],
        genres: ['Rock'],
        styles: ['Post-Punk'],
      },
    ],
    festivals: [
      {
        festival_id: 1,
        name: 'Kestrel Fields',
        country: 'NL',
        city: 'Utrecht',
        url: null,
        genres: ['Electronic'],
        editions: [
          {
            year: 2026,
            starts_on: '2026-05-20',
            lineup: [
              { artist_discogs_id: 7, billing: 'main' },
              { artist_discogs_id: 3225, billing: 'headliner' },
            ],
          },
        ],
      },
    ],
    bandcamp: [
      {
        artist_discogs_id: 7,
        url: 'https://marlavance.bandcamp.com',
        observations: weekly('2025-07-07', 52, 100, (w) => (w > 40 ? 60 : 2)),
        releases: [{ title: 'Velvet Hours', url: 'https://marlavance.bandcamp.com/album/velvet-hours', released: '2021-05-07', tags: ['house'] }],
      },
      { artist_discogs_id: 3225, url: 'https://vincewatson.bandcamp.com', observations: weekly('2025-07-07', 52, 2000, () => 5), releases: [] },
      { artist_discogs_id: 1, url: 'https://thepersuader.bandcamp.com', observations: weekly('2025-07-07', 52, 800, () => 3), releases: [] },
    ],
  };
}
