import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../discogs/record-error.js';
import { chunksOfFile, drain } from '../test-support/collect-feed.js';
import { fixturesDir } from '../test-support/paths.js';
import { parseBandcampFeed } from './bandcamp-feed.js';
import { parseFestivalsFeed } from './festivals-feed.js';
import { readLines } from './read-lines.js';

const feed = (name: string) => path.join(fixturesDir, 'feeds', name);

async function* bytes(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

describe('readLines', () => {
  it('splits across chunk boundaries, handles CRLF and counts blank lines', async () => {
    const lines = [];
    for await (const line of readLines(bytes('{"a":', '1}\r\n\r\n{"b"', ':2}\n{"c":3}'))) lines.push(line);
    expect(lines).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 3, text: '{"b":2}' },
      { number: 4, text: '{"c":3}' },
    ]);
  });
});

describe('parseBandcampFeed', () => {
  it('groups the lines of an artist into one row', async () => {
    const { batches, error } = await drain(parseBandcampFeed(await chunksOfFile(feed('bandcamp.jsonl'))));
    expect(error).toBeUndefined();
    expect(batches.flat()).toEqual([
      {
        artist_discogs_id: 3225,
        url: 'https://vincewatson.bandcamp.com',
        observations: [
          { date: '2026-06-15', followers: 1200, supporters: 205 },
          { date: '2026-06-22', followers: 1234, supporters: 210 },
        ],
        releases: [
          {
            title: 'Moments In Time (Remastered)',
            url: 'https://vincewatson.bandcamp.com/album/moments-in-time',
            released: '2026-05-01',
            tags: ['techno', 'tech house'],
          },
          { title: 'New EP', url: 'https://vincewatson.bandcamp.com/album/new-ep', released: null, tags: [] },
        ],
      },
      {
        artist_discogs_id: 1,
        url: 'https://thepersuader.bandcamp.com',
        observations: [{ date: '2026-06-22', followers: 50, supporters: 3 }],
        releases: [],
      },
    ]);
  });

  it('batches complete rows only', async () => {
    const { batches } = await drain(parseBandcampFeed(await chunksOfFile(feed('bandcamp.jsonl')), { batchSize: 1 }));
    expect(batches.map((batch) => batch.map((row) => row.artist_discogs_id))).toEqual([[3225], [1]]);
  });

  it('names the file and line of an invalid line and drops the batch being assembled', async () => {
    const file = feed('bandcamp-invalid.jsonl');
    const { batches, error } = await drain(parseBandcampFeed(await chunksOfFile(file), { source: file, batchSize: 10 }));
    expect(batches).toEqual([]);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(new RegExp(`^${file}, line 3: invalid bandcamp line: date: .*; followers: `));
    expect(error).toMatchObject({ line: 3 });
  });

  it('keeps the complete batches written before an invalid line', async () => {
    const file = feed('bandcamp-invalid.jsonl');
    const { batches, error } = await drain(parseBandcampFeed(await chunksOfFile(file), { source: file, batchSize: 1 }));
    // Artist 1 is complete once artist 2 starts; artist 2 is still being assembled at line 3.
    expect(batches.map((batch) => batch.map((row) => row.artist_discogs_id))).toEqual([[1]]);
    expect(error).toBeInstanceOf(ImportError);
  });

  it('rejects an artist whose lines are not contiguous', async () => {
    const file = feed('bandcamp-scattered.jsonl');
    const { error } = await drain(parseBandcampFeed(await chunksOfFile(file), { source: file }));
    expect((error as Error).message).toBe(
      `${file}, line 3: artist_discogs_id 1 appeared earlier in the file: the lines of one artist_discogs_id must be contiguous`,
    );
  });
});

describe('parseFestivalsFeed', () => {
  it('groups editions into festivals, fields from the latest edition', async () => {
    const { batches, error } = await drain(parseFestivalsFeed(await chunksOfFile(feed('festivals.jsonl'))));
    expect(error).toBeUndefined();
    expect(batches.flat()).toEqual([
      {
        festival_id: 7,
        name: 'Movement Detroit',
        country: 'US',
        city: 'Detroit',
        url: 'https://movement.us',
        genres: ['Electronic', 'Techno'],
        editions: [
          { year: 2025, starts_on: '2025-05-24', lineup: [{ artist_discogs_id: 3225, billing: 'main' }] },
          {
            year: 2026,
            starts_on: '2026-06-12',
            lineup: [
              { artist_discogs_id: 3225, billing: 'headliner' },
              { artist_discogs_id: 1, billing: 'support' },
            ],
          },
        ],
      },
      {
        festival_id: 8,
        name: 'Small Fest',
        country: null,
        city: null,
        url: null,
        genres: [],
        editions: [{ year: 2026, starts_on: '2026-07-01', lineup: [] }],
      },
    ]);
  });

  it('rejects an unknown billing and a line that is not JSON', async () => {
    const invalid = feed('festivals-invalid.jsonl');
    const first = await drain(parseFestivalsFeed(await chunksOfFile(invalid), { source: invalid }));
    expect((first.error as Error).message).toBe(`${invalid}, line 1: invalid festivals line: edition.lineup.0.billing: must be headliner, main or support`);
    const notJson = feed('festivals-not-json.jsonl');
    const second = await drain(parseFestivalsFeed(await chunksOfFile(notJson), { source: notJson }));
    expect((second.error as Error).message).toMatch(new RegExp(`^${notJson}, line 1: invalid JSON: `));
    expect(second.batches).toEqual([]);
  });
});
