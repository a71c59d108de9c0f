import path from 'node:path';
import type { ArtistRow, LabelRow, MasterRow, ReleaseRow } from '@catalogue/core';
import { describe, expect, it } from 'vitest';
import { parseFile, rowsOf } from '../test-support/collect.js';
import { discogsSample, fixturesDir } from '../test-support/paths.js';
import { parseDiscogs } from './parse-discogs.js';
import { ImportError } from './record-error.js';

const fixture = (...parts: string[]) => path.join(fixturesDir, 'discogs', ...parts);

describe('parseDiscogs on the real 1,000-record samples', () => {
  it('reads master 113 exactly', async () => {
    const { batches, error } = await parseFile(discogsSample('masters'));
    expect(error).toBeUndefined();
    const masters = rowsOf(batches) as MasterRow[];
    expect(masters).toHaveLength(1000);
    expect(batches.every((batch) => batch.kind === 'masters')).toBe(true);
    expect(masters.find((master) => master.master_id === 113)).toEqual({
      master_id: 113,
      title: 'Moments In Time',
      year: 2002,
      main_release_id: 116925,
      artists: [{ discogs_id: 3225, name: 'Vince Watson', anv: null, join: null, role: null }],
      genres: ['Electronic'],
      styles: ['Techno', 'Tech House'],
      data_quality: 'Correct',
    });
  });

  it('reads release 1 exactly', async () => {
    const { batches, error } = await parseFile(discogsSample('releases'));
    expect(error).toBeUndefined();
    const releases = rowsOf(batches) as ReleaseRow[];
    expect(releases).toHaveLength(1000);
    expect(releases.find((release) => release.release_id === 1)).toEqual({
      release_id: 1,
      master_id: 1660109,
      is_main_release: true,
      title: 'Stockholm',
      artists: [{ discogs_id: 1, name: 'The Persuader', anv: null, join: null, role: null }],
      extra_artists: [{ discogs_id: 239, name: 'Jesper Dahlbäck', anv: null, join: null, role: 'Music By [All Tracks By]' }],
      labels: [{ discogs_id: 5, name: 'Svek', catno: 'SK032' }],
      formats: [{ name: 'Vinyl', qty: 2, descriptions: ['12"', '33 ⅓ RPM'] }],
      genres: ['Electronic'],
      styles: ['Deep House'],
      country: 'Sweden',
      released: '1999-03-00',
      data_quality: 'Needs Vote',
    });
  });

  it('reads artist 1 and the members of artist 2', async () => {
    const { batches, error } = await parseFile(discogsSample('artists'));
    expect(error).toBeUndefined();
    const artists = rowsOf(batches) as ArtistRow[];
    expect(artists).toHaveLength(1000);
    const persuader = artists.find((artist) => artist.discogs_id === 1);
    expect(persuader).toMatchObject({
      name: 'The Persuader',
      real_name: 'Jesper Dahlbäck',
      profile: null,
      data_quality: 'Needs Vote',
      name_variations: ['Persuader', 'The Presuader'],
      urls: ['https://en.wikipedia.org/wiki/Jesper_Dahlbäck'],
      members: [],
      groups: [],
      mbid: null,
      spotify_id: null,
    });
    expect(persuader?.aliases[0]).toEqual({ discogs_id: 239, name: 'Jesper Dahlbäck' });
    expect(persuader?.aliases).toHaveLength(7);
    expect(artists.find((artist) => artist.discogs_id === 2)?.members).toEqual([
      { discogs_id: 26, name: 'Alexi Delano' },
      { discogs_id: 27, name: 'Cari Lekebusch' },
    ]);
  });

  it('reads label 1 Planet E', async () => {
    const { batches, error } = await parseFile(discogsSample('labels'));
    expect(error).toBeUndefined();
    const labels = rowsOf(batches) as LabelRow[];
    expect(labels).toHaveLength(1000);
    const planetE = labels.find((label) => label.discogs_id === 1);
    expect(planetE).toMatchObject({ name: 'Planet E', data_quality: 'Correct', parent: null });
    expect(planetE?.contact_info).toMatch(/^Planet E Communications\r\nP\.O\. Box 27218/);
    expect(planetE?.urls[0]).toBe('http://planet-e.net');
    // The sample blanks sublabel names (`<label/>`): placeholders are not refs.
    expect(planetE?.sublabels).toEqual([]);
    expect(labels.some((label) => label.parent !== null)).toBe(true);
  });

  it('yields batches of at most batchSize rows, in file order', async () => {
    const { batches } = await parseFile(discogsSample('masters'), { batchSize: 300 });
    expect(batches.map((batch) => batch.rows.length)).toEqual([300, 300, 300, 100]);
    const ids = rowsOf(batches).map((row) => (row as MasterRow).master_id);
    expect(ids[0]).toBe(113);
    expect(new Set(ids).size).toBe(1000);
  });
});

describe('parseDiscogs on both dump formats', () => {
  for (const kind of ['artists', 'labels', 'masters', 'releases'] as const) {
    it(`gives the same ${kind} rows with and without empty elements`, async () => {
      const older = await parseFile(fixture('old-format', `${kind}.xml`));
      const newer = await parseFile(fixture('new-format', `${kind}.xml`));
      expect(older.error).toBeUndefined();
      expect(newer.error).toBeUndefined();
      expect(rowsOf(older.batches)).toHaveLength(2);
      expect(rowsOf(newer.batches)).toEqual(rowsOf(older.batches));
    });
  }

  it('maps <year>0</year> to null and empty elements to null', async () => {
    const { batches } = await parseFile(fixture('old-format', 'masters.xml'));
    const [unknownYear, knownYear] = rowsOf(batches) as MasterRow[];
    expect(unknownYear).toEqual({
      master_id: 900001,
      title: 'Unknown Year',
      year: null,
      main_release_id: 900101,
      artists: [
        { discogs_id: 77, name: 'Test Artist', anv: null, join: '&', role: null },
        { discogs_id: 78, name: 'Other Artist (2)', anv: 'Other', join: null, role: null },
      ],
      genres: ['Electronic'],
      styles: ['Techno'],
      data_quality: 'Correct',
    });
    expect(knownYear).toMatchObject({ year: 1999, styles: [], data_quality: null });
  });

  it('maps release labels, formats and the main-release flag', async () => {
    const { batches } = await parseFile(fixture('new-format', 'releases.xml'));
    const [first, second] = rowsOf(batches) as ReleaseRow[];
    expect(first).toMatchObject({
      labels: [
        { discogs_id: 55, name: 'Test Label', catno: 'TL001' },
        { discogs_id: null, name: 'Not On Label', catno: null },
      ],
      formats: [
        { name: 'Vinyl', qty: 1, descriptions: ['12"', '45 RPM'] },
        { name: 'File', qty: null, descriptions: [] },
      ],
      country: null,
      released: null,
      is_main_release: true,
    });
    expect(second).toMatchObject({ master_id: 900002, is_main_release: false, labels: [], formats: [] });
  });

  it('reads a web ReadableStream and checks the expected kind', async () => {
    const xml = '<labels><label><id>9</id><name>Web</name></label></labels>';
    const stream = new Blob([xml]).stream();
    const batches = [];
    for await (const batch of parseDiscogs(stream, 'labels')) batches.push(batch);
    expect(batches).toEqual([
      {
        kind: 'labels',
        rows: [
          {
            discogs_id: 9,
            name: 'Web',
            profile: null,
            contact_info: null,
            data_quality: null,
            urls: [],
            parent: null,
            sublabels: [],
          },
        ],
      },
    ]);
    const wrongKind = parseDiscogs(new Blob([xml]).stream(), 'masters', { source: 'web.xml' });
    await expect(wrongKind.next()).rejects.toThrow('web.xml: expected a masters dump but the root element is <labels>');
  });
});

describe('parseDiscogs on bad input', () => {
  it('names the file and the record of malformed XML and yields no partial batch', async () => {
    const file = fixture('bad', 'malformed.xml');
    const { batches, error } = await parseFile(file, { batchSize: 10 });
    expect(batches).toEqual([]);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message).toContain(`${file}, record #2 (id 2): malformed XML`);
    expect(error).toMatchObject({ source: file, recordNumber: 2, recordId: '2' });
  });

  it('rejects an unknown root element', async () => {
    const file = fixture('bad', 'unknown-root.xml');
    const { batches, error } = await parseFile(file);
    expect(batches).toEqual([]);
    expect((error as Error).message).toBe(`${file}: unknown root element <records>: expected <artists>, <labels>, <masters> or <releases>`);
  });

  it('rejects a record without an id, keeping only the complete batches before it', async () => {
    const file = fixture('bad', 'missing-id.xml');
    const { batches, error } = await parseFile(file, { batchSize: 2 });
    expect(batches.map((batch) => batch.rows.map((row) => (row as ArtistRow).discogs_id))).toEqual([[1, 2]]);
    expect((error as Error).message).toBe(`${file}, record #3: artist has no <id>`);

    // With a larger batch the records before the bad one were still being assembled: all dropped.
    const dropped = await parseFile(file, { batchSize: 5 });
    expect(dropped.batches).toEqual([]);
    expect(dropped.error).toBeInstanceOf(ImportError);
  });

  it('names the file of a truncated gzip', async () => {
    const file = fixture('bad', 'truncated-masters.xml.gz');
    const { error } = await parseFile(file);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toBe(`${file}: cannot read the file: unexpected end of file`);
  });

  it('rejects an empty document', async () => {
    const empty = parseDiscogs(new Blob(['']).stream(), undefined, { source: 'empty.xml' });
    await expect(empty.next()).rejects.toThrow(/^empty\.xml: malformed XML/);
  });
});
