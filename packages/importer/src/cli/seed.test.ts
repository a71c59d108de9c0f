import { describe, expect, it } from 'vitest';
import { generateCatalogue } from '../generate/generate.js';
import { streamCatalogue } from '../generate/stream.js';
import { createRecordingWriter, snapshotOf } from '../test-support/recording-writer.js';
import { runCli } from './run-cli.js';
import { writeCatalogueData, writeCatalogueStream } from './seed.js';
import { Tally } from './tally.js';

const SMALL = { artists: 60, labels: 12, festivals: 3, masters: 250, bandcampArtists: 20 };
const silent = { write: () => true };

describe('seeding', () => {
  it('streaming a generated catalogue stores the same rows as writing it whole', async () => {
    const whole = createRecordingWriter();
    await writeCatalogueData(generateCatalogue({ scale: SMALL }), { writer: whole, tally: new Tally(), progress: silent, batchSize: 40 });
    const streamed = createRecordingWriter();
    const tally = new Tally();
    await writeCatalogueStream(streamCatalogue({ scale: SMALL }), { writer: streamed, tally, progress: silent, batchSize: 40 });

    expect(streamed.tables.masters.size).toBe(250);
    expect(streamed.tables.releases.size).toBeGreaterThanOrEqual(250);
    expect(snapshotOf(streamed)).toEqual(snapshotOf(whole));
    expect(streamed.batches.every((batch) => batch.rows.length > 0)).toBe(true);
    expect(streamed.batches.filter((batch) => batch.table === 'masters').every((batch) => batch.rows.length <= 40)).toBe(true);
    expect(tally.total()).toBe(Object.values(snapshotOf(streamed)).reduce((sum, rows) => sum + rows.length, 0));
  });

  it('catalogue seed demo writes the demo catalogue and finishes', async () => {
    const writer = createRecordingWriter();
    let stdout = '';
    const code = await runCli(['seed', 'demo'], {
      env: { DATABASE_URL: 'postgres://test' },
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: silent,
      openDatabase: async () => ({ writer, migrate: async () => [], close: async () => undefined }),
    });
    expect(code).toBe(0);
    const demo = generateCatalogue();
    expect(writer.tables.artists.size).toBe(demo.artists.length);
    expect(writer.tables.masters.size).toBe(demo.masters.length);
    expect(writer.tables.bandcamp.size).toBe(demo.bandcamp.length);
    expect(writer.finishCalls).toBe(1);
    expect(stdout).toMatch(/^imported artists [\d,]+ · labels [\d,]+ · masters [\d,]+ · releases [\d,]+ · festivals [\d,]+ · bandcamp [\d,]+ — /);
  });
});
