/**
 * The memory catalogue over a small hand-made catalogue. Artist 10 (Björk Nova) breaks out
 * now, artist 13 broke out in 2022, label 100 (Nova Records) picked both before they did.
 * Every expected number below is worked out by hand from the rows in `fixture()`.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { artistStub } from '../catalogue/agent-stubs.js';
import { type ArtistRow, type BandcampObservation, type CatalogueData, clusterIdOf, emptyCatalogueData, type MasterRow, type ReleaseRow } from '../dataset.js';
import { CLIENT_GONE, DeadlineQueue } from '../http/deadline.js';
import type { SearchQuery } from '../ports/index.js';
import type { SearchHitData } from '../schemas/records.js';
import {
  ArtistDossierSchema,
  BreakoutSchema,
  FestivalDossierSchema,
  LabelDossierSchema,
  MasterSchema,
  OneToWatchSchema,
  TastemakerSchema,
} from '../schemas/records.js';
import { createMemoryCatalogue } from './catalogue.js';

const A = (id: number) => clusterIdOf('artist', id);
const L = (id: number) => clusterIdOf('label', id);
const F = (id: number) => clusterIdOf('festival', id);
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** An artist row with every field the test does not set empty: the shape of a credit's stub. */
function artist(discogs_id: number, name: string, extra: Partial<ArtistRow> = {}): ArtistRow {
  return { ...artistStub(discogs_id, name), ...extra };
}

function master(
  master_id: number,
  title: string,
  year: number | null,
  artists: Array<[number, string]>,
  genres: string[],
  styles: string[],
  main_release_id: number | null,
): MasterRow {
  return {
    master_id,
    title,
    year,
    main_release_id,
    artists: artists.map(([discogs_id, name]) => ({ discogs_id, name, anv: null, join: null, role: null })),
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
  country: string,
  formats: string[],
  labels: Array<[number, string, string]>,
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
    data_quality: null,
  };
}

const obs = (date: string, followers: number, supporters = 0): BandcampObservation => ({ date, followers, supporters });

function fixture(): CatalogueData {
  const data = emptyCatalogueData();
  data.artists = [
    artist(10, 'Björk Nova', {
      mbid: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      spotify_id: '0123456789abcdefghijkl',
      urls: ['https://www.discogs.com/artist/10', 'https://bjorknova.example.com'],
      aliases: [
        { discogs_id: 11, name: 'Quiet Steady' },
        { discogs_id: null, name: 'BN' },
      ],
    }),
    artist(11, 'Quiet Steady'),
    artist(12, 'Rising Later'),
    artist(13, 'Old Hit'),
    artist(14, 'Same Name'),
    artist(15, 'Same Name'),
    artist(16, '123'),
    artist(17, '!!!'),
    artist(19, 'Second Watch'),
  ];
  data.labels = [
    {
      discogs_id: 100,
      name: 'Nova Records',
      profile: null,
      contact_info: null,
      data_quality: null,
      urls: ['https://novarecords.bandcamp.com'],
      parent: { discogs_id: 101, name: 'Big Box' },
      sublabels: [],
    },
    {
      discogs_id: 101,
      name: 'Big Box',
      profile: null,
      contact_info: null,
      data_quality: null,
      urls: [],
      parent: null,
      sublabels: [{ discogs_id: 100, name: 'Nova Records' }],
    },
    { discogs_id: 103, name: 'Same Name', profile: null, contact_info: null, data_quality: null, urls: [], parent: null, sublabels: [] },
  ];
  data.masters = [
    master(1, 'Aurora Lights', 2024, [[10, 'Björk Nova']], ['Electronic'], ['Techno'], 1),
    master(2, 'Night Drive', 2023, [[10, 'Björk Nova']], ['Electronic'], ['House'], 2),
    master(3, 'Steady State', 2020, [[11, 'Quiet Steady']], ['Electronic'], ['Ambient'], 3),
    master(4, 'First Light', 2024, [[12, 'Rising Later']], ['Rock'], ['Indie Rock'], 4),
    master(5, 'Old Hit Single', 2021, [[13, 'Old Hit']], ['Electronic', 'Pop'], ['Synth-pop'], 5),
    master(
      6,
      'Together',
      2022,
      [
        [10, 'Björk Nova'],
        [11, 'Quiet Steady'],
      ],
      ['Electronic', 'Jazz'],
      ['Techno', 'Nu Jazz'],
      6,
    ),
    master(7, 'Aurora Remixes', null, [[11, 'Quiet Steady']], ['Electronic'], ['Ambient'], null),
    master(8, 'Ghost Track', 1999, [[999, 'Ghost']], ['Folk'], [], null),
  ];
  data.releases = [
    release(1, 1, true, '2024-02-10', 'Germany', ['Vinyl', 'Vinyl', 'File'], [[100, 'Nova Records', 'NOVA001']]),
    release(11, 1, false, '2024-03-01', 'UK', ['CD'], [[100, 'Nova Records', 'NOVA001CD']]),
    release(2, 2, true, '2023-11-20', 'UK', ['CD'], [[101, 'Big Box', 'BB-1']]),
    release(3, 3, true, '2020', 'US', ['Vinyl'], [[100, 'Nova Records', 'NOVA-OLD']]),
    release(4, 4, true, '2024-03-15', 'US', ['Cassette'], [[100, 'Nova Records', 'NOVA002']]),
    release(5, 5, true, '2021-05-00', 'Germany', ['Vinyl'], [[100, 'Nova Records', 'NOVA000']]),
    release(6, 6, true, '2022-09-09', 'Germany', ['Vinyl'], [[101, 'Big Box', 'BB-0']]),
    release(61, 6, false, null, 'Germany', ['Vinyl'], [[101, 'Big Box', 'BB-0R']], [13]),
  ];
  data.festivals = [
    {
      festival_id: 1,
      name: 'Aurora Fest',
      country: 'NO',
      city: 'Tromsø',
      url: 'https://aurorafest.example',
      genres: ['Electronic'],
      editions: [
        {
          year: 2023,
          starts_on: '2023-07-01',
          lineup: [
            { artist_discogs_id: 10, billing: 'headliner' },
            { artist_discogs_id: 11, billing: 'main' },
          ],
        },
        {
          year: 2024,
          starts_on: '2024-06-01',
          lineup: [
            { artist_discogs_id: 12, billing: 'support' },
            { artist_discogs_id: 19, billing: 'support' },
            { artist_discogs_id: 14, billing: 'main' },
            { artist_discogs_id: 555, billing: 'main' },
          ],
        },
      ],
    },
    {
      festival_id: 2,
      name: 'Quiet Fest',
      country: null,
      city: null,
      url: null,
      genres: [],
      editions: [
        {
          year: 2025,
          starts_on: '2025-01-01',
          lineup: [
            { artist_discogs_id: 10, billing: 'main' },
            { artist_discogs_id: 11, billing: 'main' },
            { artist_discogs_id: 12, billing: 'main' },
          ],
        },
        { year: 2019, starts_on: '2019-08-01', lineup: [{ artist_discogs_id: 13, billing: 'headliner' }] },
      ],
    },
  ];
  data.bandcamp = [
    {
      artist_discogs_id: 10,
      url: 'https://bjorknova.bandcamp.com',
      observations: [obs('2024-06-30', 300, 50), obs('2023-12-01', 100), obs('2024-04-01', 110), obs('2024-05-31', 120)],
      releases: [
        { title: 'Aurora Lights', url: 'https://bjorknova.bandcamp.com/album/aurora-lights', released: '2024-02-10', tags: ['techno', 'electronic'] },
        { title: 'Night Drive', url: 'https://bjorknova.bandcamp.com/album/night-drive', released: '2023-11-20', tags: ['house', 'electronic'] },
      ],
    },
    {
      artist_discogs_id: 11,
      url: 'https://quietsteady.bandcamp.com',
      observations: [obs('2023-12-01', 200), obs('2024-04-01', 210), obs('2024-05-31', 220), obs('2024-06-30', 230)],
      releases: [],
    },
    {
      artist_discogs_id: 12,
      url: 'https://risinglater.bandcamp.com',
      observations: [obs('2024-03-01', 20), obs('2024-06-30', 24, 3)],
      releases: [{ title: 'First Light', url: 'https://risinglater.bandcamp.com/album/first-light', released: '2024-03-15', tags: ['indie'] }],
    },
    {
      artist_discogs_id: 13,
      url: 'https://oldhit.bandcamp.com',
      observations: [obs('2022-01-01', 60), obs('2022-04-01', 60), obs('2022-07-01', 200), obs('2024-06-30', 210)],
      releases: [],
    },
    { artist_discogs_id: 19, url: 'https://secondwatch.bandcamp.com', observations: [obs('2024-06-01', 10)], releases: [] },
  ];
  return data;
}

const catalogue = createMemoryCatalogue(fixture());
const noFilters = {};

async function allHits(query: { q: string | null; type: 'all' | 'master' | 'artist' | 'label' | 'festival'; filters?: object }): Promise<SearchHitData[]> {
  return catalogue.search({ q: query.q, type: query.type, filters: query.filters ?? noFilters, limit: 1000, after: null });
}

describe('search', () => {
  it('matches query tokens as prefixes, accent-insensitively, and scores by field, phrase and whole words (catalogue/search.ts)', async () => {
    const points = (matched: number, primary: number, phrase: number, whole: number) => ((matched * 128 + primary) * 4 + phrase) * 2 + whole;
    const hits = await allHits({ q: 'aurora', type: 'all' });
    expect(hits.map((hit) => [hit.type, hit.id, hit.score])).toEqual([
      ['festival', F(1), points(1, 1, 0, 1) + 0.08451], // popularity: log10(1 + 6 lineup artists) / 10
      ['master', 1, points(1, 1, 0, 1) + 0.047712], // log10(1 + 2 releases) / 10
      ['master', 7, points(1, 1, 0, 1)],
    ]);
    const prefix = await allHits({ q: 'BJÖ', type: 'artist' });
    expect(prefix).toEqual([
      {
        type: 'artist',
        id: A(10),
        slug: 'bjork-nova',
        name: 'Björk Nova',
        year: null,
        artists: [],
        genres: ['Electronic'],
        styles: [],
        score: points(1, 1, 0, 0) + 0.060206,
      },
    ]);
    // masters match on their artists' names too (masters 1 and 6 have two releases, master 2
    // one: popularity orders them), and carry their credited artists with slugs
    const masters = await allHits({ q: 'bjork nova', type: 'master' });
    expect(masters.map((hit) => hit.id)).toEqual([1, 6, 2]);
    expect(masters[0]?.credits?.[0]).toMatchObject({ cluster_id: A(10), slug: 'bjork-nova' });
    // the exact full title scores the phrase 2
    expect((await allHits({ q: 'night drive', type: 'master' }))[0]).toMatchObject({ id: 2, score: points(2, 2, 2, 1) + 0.030103 });
    // no entry has every word: entries with some of them are hits, below what full matches would score
    const some = await allHits({ q: 'aurora zzz', type: 'all' });
    expect(some.map((hit) => [hit.type, hit.id])).toEqual(hits.map((hit) => [hit.type, hit.id]));
    expect(some.map((hit) => hit.score)).toEqual(hits.map((hit) => hit.score - 1)); // zzz is no whole word: whole 0
    expect(await allHits({ q: 'zzz qqq', type: 'all' })).toEqual([]);
  });

  it('applies facet filters to masters only: any value within a facet, all facets together', async () => {
    const ids = async (filters: object) => (await allHits({ q: null, type: 'all', filters })).map((hit) => hit.id).sort((a, b) => a - b);
    expect(await ids({ genre: ['electronic'] })).toEqual([1, 2, 3, 5, 6, 7]);
    expect(await ids({ country: ['germany', 'US'] })).toEqual([1, 3, 4, 5, 6]);
    expect(await ids({ genre: ['Electronic'], year_from: 2022 })).toEqual([1, 2, 6]);
    expect(await ids({ year_from: 2020, year_to: 2021 })).toEqual([3, 5]);
    expect(await ids({ format: ['file'] })).toEqual([1]);
    expect(await ids({ label: ['nova-records'] })).toEqual([1, 3, 4, 5]);
    expect(await ids({ label: ['Big Box'], style: ['techno'] })).toEqual([6]);
  });

  it('pages with a keyset position: the pages join to the full ordered list without duplicates', async () => {
    const full = await allHits({ q: null, type: 'all' });
    // 9 artists of the data and the stub of Ghost (999), whom only master 8 credits
    expect(full).toHaveLength(8 + 10 + 3 + 2);
    for (let i = 1; i < full.length; i++) {
      const [a, b] = [full[i - 1] as SearchHitData, full[i] as SearchHitData];
      expect(a.score > b.score || (a.score === b.score && (a.type !== b.type || a.id < b.id))).toBe(true);
    }
    const paged: SearchHitData[] = [];
    let after = null;
    for (;;) {
      const page: SearchHitData[] = await catalogue.search({ q: null, type: 'all', filters: noFilters, limit: 4, after });
      paged.push(...page);
      const last = page[page.length - 1];
      if (page.length < 4 || !last) break;
      after = { score: last.score, type: last.type, id: last.id };
    }
    expect(paged).toEqual(full);
  });
});

describe('facets', () => {
  it('counts values over the matching masters, count desc then value asc', async () => {
    const all = await catalogue.facets({ q: null, facets: ['genre', 'format'], filters: noFilters, limit: 10 });
    expect(all.total).toBe(8);
    expect(all.facets.genre).toEqual([
      { value: 'Electronic', count: 6 },
      { value: 'Folk', count: 1 },
      { value: 'Jazz', count: 1 },
      { value: 'Pop', count: 1 },
      { value: 'Rock', count: 1 },
    ]);
    expect(all.facets.format).toEqual([
      { value: 'Vinyl', count: 4 },
      { value: 'CD', count: 1 },
      { value: 'Cassette', count: 1 },
      { value: 'File', count: 1 },
    ]);
    const years = await catalogue.facets({ q: 'bjork', facets: ['year_from', 'label', 'country'], filters: { genre: ['electronic'] }, limit: 2 });
    expect(years.total).toBe(3);
    expect(years.facets.year_from).toEqual([
      { value: 2022, count: 1 },
      { value: 2023, count: 1 },
    ]);
    expect(years.facets.label).toEqual([
      { value: 'Big Box', count: 2 },
      { value: 'Nova Records', count: 1 },
    ]);
    expect(years.facets.country).toEqual([
      { value: 'Germany', count: 2 },
      { value: 'UK', count: 1 },
    ]);
  });
});

describe('masters', () => {
  it('builds the master record from the master and its main release', async () => {
    const m1 = await catalogue.master(1);
    expect(v.is(v.omit(MasterSchema, ['_links']), m1)).toBe(true);
    expect(m1).toEqual({
      master_id: 1,
      title: 'Aurora Lights',
      year: 2024,
      main_release_id: 1,
      artists: [{ cluster_id: A(10), slug: 'bjork-nova', name: 'Björk Nova', anv: null, join: null }],
      genres: ['Electronic'],
      styles: ['Techno'],
      formats: ['Vinyl', 'File'],
      country: 'Germany',
      labels: [{ cluster_id: L(100), slug: 'nova-records', name: 'Nova Records', catno: 'NOVA001' }],
      released: '2024-02-10',
      data_quality: 'Correct',
    });
    expect(await catalogue.master(8)).toMatchObject({
      year: 1999,
      artists: [{ cluster_id: A(999), slug: 'ghost', name: 'Ghost' }],
      formats: [],
      labels: [],
      country: null,
      released: null,
    });
    expect(await catalogue.master(404)).toBeNull();
    expect((await catalogue.masters([7, 404, 1, 7])).map((m) => m.master_id).sort()).toEqual([1, 7]);
  });

  it('assembles the master dossier: releases by date, related masters of the first artist', async () => {
    const dossier = await catalogue.masterDossier(1);
    expect(dossier?.releases.map((r) => [r.release_id, r.is_main_release, r.formats])).toEqual([
      [1, true, ['Vinyl', 'File']],
      [11, false, ['CD']],
    ]);
    expect(dossier?.release_count).toBe(2);
    expect(dossier?.related_masters).toEqual([
      { master_id: 2, title: 'Night Drive', year: 2023, relation: 'same_artist' },
      { master_id: 6, title: 'Together', year: 2022, relation: 'same_artist' },
    ]);
    expect((await catalogue.masterDossier(6))?.releases.map((r) => r.release_id)).toEqual([6, 61]);
  });
});

describe('agents', () => {
  it('finds agents by cluster id, slug, discogs id and mbid', async () => {
    expect(await catalogue.findAgent({ by: 'cluster_id', cluster_id: A(10) }, null)).toEqual({
      kind: 'artist',
      cluster_id: A(10),
      slug: 'bjork-nova',
      name: 'Björk Nova',
    });
    expect(await catalogue.findAgent({ by: 'cluster_id', cluster_id: A(10) }, 'label')).toBeNull();
    expect(await catalogue.findAgent({ by: 'slug', slug: 'same-name' }, null)).toMatchObject({ kind: 'artist', cluster_id: A(14) });
    expect(await catalogue.findAgent({ by: 'slug', slug: 'same-name-15' }, null)).toMatchObject({ kind: 'artist', cluster_id: A(15) });
    expect(await catalogue.findAgent({ by: 'slug', slug: 'same-name' }, 'label')).toMatchObject({ kind: 'label', cluster_id: L(103) });
    expect(await catalogue.findAgent({ by: 'slug', slug: 'aurora-fest' }, null)).toMatchObject({ kind: 'festival', cluster_id: F(1) });
    expect(await catalogue.findAgent({ by: 'slug', slug: 'artist-123' }, 'artist')).toMatchObject({ cluster_id: A(16) });
    expect(await catalogue.findAgent({ by: 'slug', slug: 'artist-17' }, 'artist')).toMatchObject({ cluster_id: A(17) });
    expect(await catalogue.findAgent({ by: 'discogs', id: 100 }, 'label')).toMatchObject({ slug: 'nova-records' });
    expect(await catalogue.findAgent({ by: 'discogs', id: 12 }, null)).toMatchObject({ kind: 'artist', slug: 'rising-later' });
    expect(await catalogue.findAgent({ by: 'mbid', mbid: 'AAAAAAAA-bbbb-cccc-dddd-eeeeeeeeeeee' }, null)).toMatchObject({ cluster_id: A(10) });
    // only credited (master 8): a stub agent from the credit
    expect(await catalogue.findAgent({ by: 'discogs', id: 999 }, null)).toEqual({ kind: 'artist', cluster_id: A(999), slug: 'ghost', name: 'Ghost' });
    expect(await catalogue.findAgent({ by: 'discogs', id: 998 }, null)).toBeNull();
  });

  it('assembles the artist dossier', async () => {
    const dossier = await catalogue.artistDossier(A(10));
    expect(v.is(v.omit(ArtistDossierSchema, ['_links']), dossier)).toBe(true);
    expect(dossier?.identity?.aliases).toEqual([
      { cluster_id: A(11), slug: 'quiet-steady', name: 'Quiet Steady' },
      { cluster_id: null, slug: null, name: 'BN' },
    ]);
    expect(dossier?.identity?.locators.map((l) => l.source)).toEqual(['discogs', 'musicbrainz', 'bandcamp', 'spotify', 'website']);
    expect(dossier?.behavior).toEqual({
      active_years: { first: 2022, last: 2024 },
      releases_per_year: [
        { year: 2022, count: 1 },
        { year: 2023, count: 1 },
        { year: 2024, count: 1 },
      ],
      top_genres: [
        { name: 'Electronic', count: 3 },
        { name: 'Jazz', count: 1 },
      ],
      top_styles: [
        { name: 'Techno', count: 2 },
        { name: 'House', count: 1 },
        { name: 'Nu Jazz', count: 1 },
      ],
      label_loyalty: { top_label: { cluster_id: L(101), slug: 'big-box', name: 'Big Box' }, share: 0.6667, distinct_labels: 2 },
      collaborators: [{ cluster_id: A(11), slug: 'quiet-steady', name: 'Quiet Steady', count: 1 }],
      festival_appearances: [
        { cluster_id: F(2), slug: 'quiet-fest', name: 'Quiet Fest', year: 2025, billing: 'main' },
        { cluster_id: F(1), slug: 'aurora-fest', name: 'Aurora Fest', year: 2023, billing: 'headliner' },
      ],
    });
    expect(dossier?.discography?.counts).toEqual({ masters: 3, main: 3, appearances: 0 });
    expect(dossier?.discography?.masters.map((m) => m.master_id)).toEqual([1, 2, 6]);
    expect(dossier?.bandcamp).toMatchObject({
      followers: 300,
      supporters: 50,
      as_of: '2024-06-30',
      growth: { d30: r4(400 / 120 - 1), d90: r4(400 / 110 - 1) },
    });
    expect(dossier?.bandcamp?.series.map((p) => p.date)).toEqual(['2023-12-01', '2024-04-01', '2024-05-31', '2024-06-30']);
    expect(dossier?.bandcamp?.tags).toEqual([
      { name: 'electronic', count: 2 },
      { name: 'house', count: 1 },
      { name: 'techno', count: 1 },
    ]);

    const appearances = await catalogue.artistDossier(A(13));
    expect(appearances?.discography).toEqual({
      counts: { masters: 2, main: 1, appearances: 1 },
      masters: [
        { master_id: 6, title: 'Together', year: 2022, role: 'appearance', genres: ['Electronic', 'Jazz'], styles: ['Techno', 'Nu Jazz'] },
        { master_id: 5, title: 'Old Hit Single', year: 2021, role: 'main', genres: ['Electronic', 'Pop'], styles: ['Synth-pop'] },
      ],
    });
    expect((await catalogue.artistDossier(A(14)))?.bandcamp).toBeNull();
    expect(await catalogue.artistDossier(L(100))).toBeNull();
  });

  it('assembles the label and festival dossiers', async () => {
    const label = await catalogue.labelDossier(L(100));
    expect(v.is(v.omit(LabelDossierSchema, ['_links']), label)).toBe(true);
    expect(label?.roster.map((r) => [r.name, r.masters])).toEqual([
      ['Björk Nova', 1],
      ['Old Hit', 1],
      ['Quiet Steady', 1],
      ['Rising Later', 1],
    ]);
    expect(label?.catalogue).toEqual({
      counts: { masters: 4 },
      years: { first: 2020, last: 2024 },
      top_genres: [
        { name: 'Electronic', count: 3 },
        { name: 'Pop', count: 1 },
        { name: 'Rock', count: 1 },
      ],
      top_styles: [
        { name: 'Ambient', count: 1 },
        { name: 'Indie Rock', count: 1 },
        { name: 'Synth-pop', count: 1 },
        { name: 'Techno', count: 1 },
      ],
      masters: [
        { master_id: 1, title: 'Aurora Lights', year: 2024, catno: 'NOVA001' },
        { master_id: 4, title: 'First Light', year: 2024, catno: 'NOVA002' },
        { master_id: 5, title: 'Old Hit Single', year: 2021, catno: 'NOVA000' },
        { master_id: 3, title: 'Steady State', year: 2020, catno: 'NOVA-OLD' },
      ],
    });
    expect(label?.parent).toEqual({ cluster_id: L(101), slug: 'big-box', name: 'Big Box' });
    expect(label?.bandcamp).toEqual({ url: 'https://novarecords.bandcamp.com' });

    const festival = await catalogue.festivalDossier(F(1));
    expect(v.is(v.omit(FestivalDossierSchema, ['_links']), festival)).toBe(true);
    expect(festival?.editions.map((e) => [e.year, e.lineup.map((s) => s.name)])).toEqual([
      [2024, ['Same Name', 'Rising Later', 'Second Watch']],
      [2023, ['Björk Nova', 'Quiet Steady']],
    ]);
    expect(festival?.identity.locators).toEqual([{ source: 'website', id: 'aurorafest.example', url: 'https://aurorafest.example' }]);
  });
});

describe('resolve', () => {
  it('resolves names: exact first preferring artists, else the best prefix match', async () => {
    expect(await catalogue.resolve({ by: 'q', q: 'SAME name' })).toMatchObject({ kind: 'artist', cluster_id: A(14) });
    expect(await catalogue.resolve({ by: 'q', q: 'bjork' })).toMatchObject({ kind: 'artist', cluster_id: A(10), slug: 'bjork-nova' });
    // both "Björk Nova" and "Nova Records" hold the token; the label has more masters (4 vs 3)
    expect(await catalogue.resolve({ by: 'q', q: 'nova' })).toMatchObject({ kind: 'label', cluster_id: L(100) });
    expect(await catalogue.resolve({ by: 'q', q: 'quiet fest' })).toMatchObject({ kind: 'festival', cluster_id: F(2), locators: [] });
    expect(await catalogue.resolve({ by: 'q', q: 'nothing like it' })).toBeNull();
  });

  it('resolves Discogs, MusicBrainz, Bandcamp and Spotify locators', async () => {
    const bjork = await catalogue.resolve({ by: 'discogs', kind: 'artist', id: 10 });
    expect(bjork).toEqual({
      cluster_id: A(10),
      kind: 'artist',
      slug: 'bjork-nova',
      name: 'Björk Nova',
      locators: [
        { source: 'discogs', id: '10', url: 'https://www.discogs.com/artist/10' },
        { source: 'musicbrainz', id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', url: 'https://musicbrainz.org/artist/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee' },
        { source: 'bandcamp', id: 'bjorknova.bandcamp.com', url: 'https://bjorknova.bandcamp.com' },
        { source: 'spotify', id: '0123456789abcdefghijkl', url: 'https://open.spotify.com/artist/0123456789abcdefghijkl' },
        { source: 'website', id: 'bjorknova.example.com', url: 'https://bjorknova.example.com' },
      ],
    });
    expect(await catalogue.resolve({ by: 'discogs', kind: 'label', id: 101 })).toMatchObject({ kind: 'label', slug: 'big-box' });
    expect(await catalogue.resolve({ by: 'discogs', kind: 'master', id: 5 })).toMatchObject({ cluster_id: A(13) });
    expect(await catalogue.resolve({ by: 'discogs', kind: 'master', id: 8 })).toMatchObject({ cluster_id: A(999), slug: 'ghost', name: 'Ghost' });
    expect(await catalogue.resolve({ by: 'mbid', mbid: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee' })).toMatchObject({ cluster_id: A(10) });
    expect(await catalogue.resolve({ by: 'bandcamp', host: 'RisingLater.bandcamp.com' })).toMatchObject({ cluster_id: A(12) });
    expect(await catalogue.resolve({ by: 'spotify', id: '0123456789abcdefghijkl' })).toMatchObject({ cluster_id: A(10) });
    expect(await catalogue.resolve({ by: 'spotify', id: 'x' })).toBeNull();
  });
});

describe('bandcamp', () => {
  it('lists covered artists by cluster id with keyset paging and a tag filter', async () => {
    const all = await catalogue.bandcampManifest({ tag: null, limit: 10, after: null });
    expect(all.as_of).toBe('2024-06-30');
    expect(all.artists.map((a) => a.cluster_id)).toEqual([A(10), A(11), A(12), A(13), A(19)]);
    expect(all.artists[2]).toEqual({
      cluster_id: A(12),
      slug: 'rising-later',
      name: 'Rising Later',
      url: 'https://risinglater.bandcamp.com',
      followers: 24,
      supporters: 3,
    });
    expect((await catalogue.bandcampManifest({ tag: null, limit: 2, after: A(11) })).artists.map((a) => a.cluster_id)).toEqual([A(12), A(13)]);
    expect((await catalogue.bandcampManifest({ tag: 'HOUSE', limit: 10, after: null })).artists.map((a) => a.cluster_id)).toEqual([A(10)]);
  });

  it('finds releases by url or by artist', async () => {
    const byUrl = await catalogue.bandcampReleases({ by: 'url', url: 'https://BjorkNova.bandcamp.com/album/night-drive/' });
    expect(byUrl).toEqual({
      artist: { cluster_id: A(10), slug: 'bjork-nova', name: 'Björk Nova' },
      releases: [{ title: 'Night Drive', url: 'https://bjorknova.bandcamp.com/album/night-drive', released: '2023-11-20', tags: ['house', 'electronic'] }],
    });
    expect((await catalogue.bandcampReleases({ by: 'artist', cluster_id: A(12) }))?.releases.map((r) => r.title)).toEqual(['First Light']);
    expect(await catalogue.bandcampReleases({ by: 'artist', cluster_id: A(14) })).toBeNull();
    expect(await catalogue.bandcampReleases({ by: 'url', url: 'https://bjorknova.bandcamp.com/album/unknown' })).toBeNull();
    expect(await catalogue.bandcampArtist(A(12))).toMatchObject({ followers: 24, supporters: 3, growth: { d30: 0.5, d90: 0.5 } });
    // 19 has no observation 30 days before as_of
    expect(await catalogue.bandcampArtist(A(19))).toMatchObject({ followers: 10, growth: { d30: null, d90: null } });
  });
});

describe('signals', () => {
  it('finds the breakout of each window with its own and genre baselines', async () => {
    // 30 days: m_now 400, m_then 120 (2024-05-31), m_prev 110 (last on or before 2024-05-01).
    // Electronic peers eligible: g(11) = ln(231/221), g(13) = ln(211/201) → median ln(211/201).
    const d30 = await catalogue.breakouts({ window: '30d', genre: null, limit: 10 });
    expect(d30.as_of).toBe('2024-06-30');
    expect(d30.items).toEqual([
      {
        cluster_id: A(10),
        slug: 'bjork-nova',
        name: 'Björk Nova',
        genre: 'Electronic',
        followers: 300,
        supporters: 50,
        growth: r4(Math.log(401 / 121)),
        baseline: r4(Math.log(121 / 111)),
        genre_baseline: r4(Math.log(211 / 201)),
        score: r4(Math.log(401 / 121) - Math.log(121 / 111)),
      },
    ]);
    expect(v.is(BreakoutSchema, d30.items[0])).toBe(true);
    // 90 days: m_then 110, m_prev 100; genre median is ln(231/211) (artist 11), below the own baseline.
    const d90 = await catalogue.breakouts({ window: '90d', genre: 'ELECTRONIC', limit: 10 });
    expect(d90.items.map((b) => [b.cluster_id, b.growth, b.baseline, b.genre_baseline, b.score])).toEqual([
      [A(10), r4(Math.log(401 / 111)), r4(Math.log(111 / 101)), r4(Math.log(231 / 211)), r4(Math.log(401 / 111) - Math.log(111 / 101))],
    ]);
    expect((await catalogue.breakouts({ window: '90d', genre: 'Rock', limit: 10 })).items).toEqual([]);
  });

  it('ranks tastemakers by hit rate and median lead, filtering kind before ranking', async () => {
    // Nova Records picks 10 (2024-02-10), 11 (2020-01-01), 12 (2024-03-15), 13 (2021-05-01);
    // 10 first broke out 2024-06-30 (lead 141 d), 13 on 2022-07-01 (lead 426 d).
    // Aurora Fest picks 10, 11 (2023-07-01), 12, 19 (2024-06-01); 14 has no series; hit: 10 (365 d).
    const { items, as_of } = await catalogue.tastemakers({ kind: null, limit: 10 });
    expect(as_of).toBe('2024-06-30');
    expect(items).toEqual([
      {
        cluster_id: L(100),
        kind: 'label',
        slug: 'nova-records',
        name: 'Nova Records',
        picks: 4,
        hits: 2,
        hit_rate: 0.5,
        median_lead_days: (141 + 426) / 2,
        rank: 1,
      },
      { cluster_id: F(1), kind: 'festival', slug: 'aurora-fest', name: 'Aurora Fest', picks: 4, hits: 1, hit_rate: 0.25, median_lead_days: 365, rank: 2 },
    ]);
    for (const item of items) expect(v.is(TastemakerSchema, item)).toBe(true);
    expect((await catalogue.tastemakers({ kind: 'festival', limit: 10 })).items).toEqual([{ ...items[1], rank: 1 }]);
    expect((await catalogue.tastemakers({ kind: null, limit: 1 })).items.map((t) => t.cluster_id)).toEqual([L(100)]);
  });

  it('lists recent picks of top tastemakers that have not broken out', async () => {
    const { items } = await catalogue.onesToWatch({ genre: null, limit: 10 });
    expect(items).toEqual([
      {
        cluster_id: A(12),
        slug: 'rising-later',
        name: 'Rising Later',
        genre: 'Rock',
        picked_by: [
          { cluster_id: L(100), kind: 'label', slug: 'nova-records', name: 'Nova Records', picked_on: '2024-03-15' },
          { cluster_id: F(1), kind: 'festival', slug: 'aurora-fest', name: 'Aurora Fest', picked_on: '2024-06-01' },
        ],
        score: 0.75,
        followers: 24,
        growth: 0.5,
      },
      {
        cluster_id: A(19),
        slug: 'second-watch',
        name: 'Second Watch',
        genre: null,
        picked_by: [{ cluster_id: F(1), kind: 'festival', slug: 'aurora-fest', name: 'Aurora Fest', picked_on: '2024-06-01' }],
        score: 0.25,
        followers: 10,
        growth: null,
      },
    ]);
    for (const item of items) expect(v.is(OneToWatchSchema, item)).toBe(true);
    expect((await catalogue.onesToWatch({ genre: 'rock', limit: 10 })).items.map((i) => i.cluster_id)).toEqual([A(12)]);
  });

  it('answers empty lists with a null as_of when there is no Bandcamp data', async () => {
    const empty = createMemoryCatalogue({ ...fixture(), bandcamp: [] });
    expect(await empty.breakouts({ window: '30d', genre: null, limit: 5 })).toEqual({ as_of: null, items: [] });
    expect(await empty.tastemakers({ kind: null, limit: 5 })).toEqual({ as_of: null, items: [] });
    expect(await empty.onesToWatch({ genre: null, limit: 5 })).toEqual({ as_of: null, items: [] });
    expect(await empty.bandcampManifest({ tag: null, limit: 5, after: null })).toEqual({ as_of: null, artists: [] });
  });
});

describe('the memory catalogue and the request lifetime', () => {
  it('refuses a call whose lifetime ended, asking the lifetime (no signal made) or a caller signal', async () => {
    const catalogue = createMemoryCatalogue(emptyCatalogueData());
    const query = { q: 'nova', type: 'all', filters: {}, limit: 5 } as unknown as SearchQuery;
    const ended = new DeadlineQueue(1000).start({ [CLIENT_GONE]: () => true });
    await expect(catalogue.search(query, ended)).rejects.toMatchObject({ status: 504, code: 'request_aborted' });
    const live = new DeadlineQueue(1000).start({ [CLIENT_GONE]: () => false });
    await expect(catalogue.search(query, live)).resolves.toEqual([]);
    live.dispose();
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(catalogue.search(query, { signal: controller.signal })).rejects.toThrow('caller gave up');
  });
});
