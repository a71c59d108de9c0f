import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discogsSample, fixturesDir } from '../test-support/paths.js';
import { createRecordingWriter, type RecordingWriter, snapshotOf } from '../test-support/recording-writer.js';
import type { CatalogueDatabase } from './database.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, runCli } from './run-cli.js';

const SAMPLES = [discogsSample('artists'), discogsSample('labels'), discogsSample('masters'), discogsSample('releases')];
const fixture = (...parts: string[]) => path.join(fixturesDir, ...parts);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  opened: string[];
  migrations: number;
  closed: number;
}

/** Runs the CLI in process against one shared in-memory writer (the "database"). */
async function run(argv: string[], writer: RecordingWriter, env: Record<string, string> = { DATABASE_URL: 'postgres://test' }): Promise<Run> {
  const result: Run = { code: -1, stdout: '', stderr: '', opened: [], migrations: 0, closed: 0 };
  const database: CatalogueDatabase = {
    writer,
    migrate: async () => {
      result.migrations += 1;
      return [];
    },
    close: async () => {
      result.closed += 1;
    },
  };
  result.code = await runCli(argv, {
    env,
    stdout: { write: (chunk: string) => (result.stdout += chunk) },
    stderr: { write: (chunk: string) => (result.stderr += chunk) },
    openDatabase: async (url) => {
      result.opened.push(url);
      return database;
    },
    batchSize: 400,
  });
  return result;
}

describe('catalogue import discogs', () => {
  it('writes the four samples in complete batches, then finishes once', async () => {
    const writer = createRecordingWriter();
    const result = await run(['import', 'discogs', ...SAMPLES], writer);
    expect(result.stderr).not.toMatch(/^catalogue:/m); // progress lines only (stderr is not a terminal)
    expect(result.code).toBe(EXIT_OK);
    expect(result.opened).toEqual(['postgres://test']);
    expect(result.closed).toBe(1);
    expect(writer.finishCalls).toBe(1);
    for (const table of ['artists', 'labels', 'masters', 'releases'] as const) {
      expect(writer.tables[table].size).toBe(1000);
    }
    expect(writer.batches.every((batch) => batch.rows.length <= 400)).toBe(true);
    expect(writer.batches.map((batch) => batch.table).slice(0, 3)).toEqual(['artists', 'artists', 'artists']);
    expect(writer.tables.masters.get(113)).toMatchObject({ title: 'Moments In Time', year: 2002 });
    expect(writer.tables.releases.get(1)).toMatchObject({ title: 'Stockholm', country: 'Sweden' });
    expect(writer.tables.artists.get(1)).toMatchObject({ name: 'The Persuader', real_name: 'Jesper Dahlbäck' });
    expect(writer.tables.labels.get(1)).toMatchObject({ name: 'Planet E' });
    expect(result.stdout).toMatch(
      /^imported artists 1,000 · labels 1,000 · masters 1,000 · releases 1,000 — 4,000 records in (?:\d+\.\d s \([\d.,]+ records\/s\)|under 0\.1 s)\n$/,
    );
  });

  it('re-importing the same files leaves the same state', async () => {
    const writer = createRecordingWriter();
    expect((await run(['import', 'discogs', ...SAMPLES], writer)).code).toBe(EXIT_OK);
    const once = snapshotOf(writer);
    const batchesOnce = writer.batches.length;
    expect((await run(['import', 'discogs', ...SAMPLES], writer)).code).toBe(EXIT_OK);
    expect(writer.batches.length).toBe(batchesOnce * 2);
    expect(snapshotOf(writer)).toEqual(once);
  });

  it('stops at a bad record with the file and record on stderr, exit 1, no partial batch, no finish', async () => {
    const writer = createRecordingWriter();
    const bad = fixture('discogs', 'bad', 'missing-id.xml');
    const result = await run(['import', 'discogs', discogsSample('labels'), bad], writer);
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.stderr).toContain(`catalogue: ${bad}, record #3: artist has no <id>\n`);
    expect(result.stderr).toContain('complete batches written before the error: labels 1,000');
    // The labels file was written; of the bad artists file, not one row.
    expect(writer.tables.labels.size).toBe(1000);
    expect(writer.tables.artists.size).toBe(0);
    expect(writer.finishCalls).toBe(0);
    expect(result.closed).toBe(1);
  });

  it('names malformed XML and an unknown root', async () => {
    const malformed = fixture('discogs', 'bad', 'malformed.xml');
    const first = await run(['import', 'discogs', malformed], createRecordingWriter());
    expect(first.code).toBe(EXIT_FAILURE);
    expect(first.stderr).toMatch(new RegExp(`^catalogue: ${malformed}, record #2 \\(id 2\\): malformed XML`, 'm'));

    const unknown = fixture('discogs', 'bad', 'unknown-root.xml');
    const second = await run(['import', 'discogs', unknown], createRecordingWriter());
    expect(second.code).toBe(EXIT_FAILURE);
    expect(second.stderr).toContain(`${unknown}: unknown root element <records>`);
  });

  it('checks every file exists before opening the database', async () => {
    const writer = createRecordingWriter();
    const result = await run(['import', 'discogs', discogsSample('labels'), '/nowhere/masters.xml'], writer);
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.stderr).toBe('catalogue: /nowhere/masters.xml: no such file\n');
    expect(result.opened).toEqual([]);
    expect(writer.batches).toEqual([]);
  });
});

describe('catalogue import bandcamp / festivals', () => {
  it('imports both feeds and re-imports them idempotently', async () => {
    const writer = createRecordingWriter();
    const bandcamp = await run(['import', 'bandcamp', fixture('feeds', 'bandcamp.jsonl')], writer);
    expect(bandcamp.code).toBe(EXIT_OK);
    expect(bandcamp.stdout).toMatch(/^imported bandcamp 2 — 2 records in /);
    const festivals = await run(['import', 'festivals', fixture('feeds', 'festivals.jsonl')], writer);
    expect(festivals.code).toBe(EXIT_OK);
    expect([...writer.tables.festivals.keys()]).toEqual([7, 8]);
    expect(writer.tables.bandcamp.get(3225)?.observations).toHaveLength(2);

    const before = snapshotOf(writer);
    await run(['import', 'bandcamp', fixture('feeds', 'bandcamp.jsonl')], writer);
    await run(['import', 'festivals', fixture('feeds', 'festivals.jsonl')], writer);
    expect(snapshotOf(writer)).toEqual(before);
  });

  it('stops at an invalid line with file and line number', async () => {
    const writer = createRecordingWriter();
    const file = fixture('feeds', 'bandcamp-invalid.jsonl');
    const result = await run(['import', 'bandcamp', file], writer);
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.stderr).toMatch(new RegExp(`^catalogue: ${file}, line 3: invalid bandcamp line: `, 'm'));
    expect(writer.batches).toEqual([]);
    expect(writer.finishCalls).toBe(0);
  });
});

describe('catalogue arguments and environment', () => {
  it('prints help', async () => {
    const result = await run(['--help'], createRecordingWriter());
    expect(result.code).toBe(EXIT_OK);
    expect(result.stdout).toContain('Usage: catalogue <command>');
    expect(result.stdout).toContain('import festivals <file>');
    expect(result.opened).toEqual([]);
  });

  it('prints one command in full with --help after it, or -h, or help before it, without opening the database', async () => {
    for (const argv of [
      ['import', 'discogs', '--help'],
      ['import', 'discogs', 'a.xml', '-h'],
      ['help', 'import', 'discogs'],
    ]) {
      const result = await run(argv, createRecordingWriter());
      expect(result.code, argv.join(' ')).toBe(EXIT_OK);
      expect(result.stdout, argv.join(' ')).toMatch(/^Usage: catalogue import discogs <file>\.\.\.\n\nImports Discogs monthly XML dumps/);
      expect(result.opened).toEqual([]);
    }
    for (const words of [['migrate'], ['refresh'], ['import', 'bandcamp'], ['import', 'festivals'], ['seed', 'demo'], ['seed', 'scale']]) {
      const result = await run([...words, '--help'], createRecordingWriter());
      expect(result.code).toBe(EXIT_OK);
      expect(result.stdout.split('\n')[0]).toMatch(new RegExp(`^Usage: catalogue ${words.join(' ')}( <file>)?$`));
    }
  });

  it('prints a group of commands with --help after the group', async () => {
    const result = await run(['seed', '--help'], createRecordingWriter());
    expect(result.code).toBe(EXIT_OK);
    expect(result.stdout).toMatch(/^Usage: catalogue seed <demo\|scale> \[arguments\]\n/);
    expect(result.stdout).toContain('seed scale');
    expect(result.stdout).not.toContain('import discogs');
  });

  it('prints the package version with --version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    const result = await run(['--version'], createRecordingWriter());
    expect(result.code).toBe(EXIT_OK);
    expect(result.stdout).toBe(`catalogue ${version}\n`);
    expect(result.opened).toEqual([]);
  });

  it("takes a file named like an option after '--'", async () => {
    const result = await run(['import', 'bandcamp', '--', '-feed.jsonl'], createRecordingWriter());
    expect(result.code).toBe(EXIT_FAILURE);
    expect(result.stderr).toBe('catalogue: -feed.jsonl: no such file\n');
  });

  it('rejects bad usage with exit 2', async () => {
    for (const argv of [
      ['import'],
      ['import', 'discogs'],
      ['import', 'bandcamp', 'a', 'b'],
      ['seed', 'big'],
      ['frobnicate'],
      ['migrate', '--force'],
      ['frobnicate', '--help'],
      ['--help=yes'],
      ['-x'],
    ]) {
      const result = await run(argv, createRecordingWriter());
      expect(result.code, argv.join(' ')).toBe(EXIT_USAGE);
      expect(result.stderr).toMatch(/^catalogue: .+\nRun catalogue --help for usage\.\n$/);
    }
  });

  it('without DATABASE_URL opens the embedded default, and says so', async () => {
    let stderr = '';
    const opened: string[] = [];
    const code = await runCli(['migrate'], {
      env: { CATALOGUE_DATA_DIR: '/tmp/somewhere' },
      stdout: { write: () => true },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      openDatabase: async () => {
        throw new Error('not PostgreSQL');
      },
      openEmbedded: async (dataDir) => {
        opened.push(dataDir);
        return { writer: createRecordingWriter(), migrate: async () => [], close: async () => undefined, description: 'catalogue: embedded here' };
      },
    });
    expect({ code, opened, stderr }).toEqual({ code: EXIT_OK, opened: ['/tmp/somewhere'], stderr: 'catalogue: embedded here\n' });
  });

  it('refreshes derived data without writing rows', async () => {
    const writer = createRecordingWriter();
    const result = await run(['refresh'], writer);
    expect(result.code).toBe(EXIT_OK);
    expect(result.migrations).toBe(1);
    expect(writer.batches).toEqual([]);
    expect(writer.finishCalls).toBe(1);
    expect(result.stdout).toBe('derived data recomputed\n');
    expect((await run(['refresh', 'now'], createRecordingWriter())).code).toBe(EXIT_USAGE);
  });

  it('migrates', async () => {
    const result = await run(['migrate'], createRecordingWriter());
    expect(result.code).toBe(EXIT_OK);
    expect(result.migrations).toBe(1);
    expect(result.stdout).toBe('schema is up to date\n');
  });
});

describe('progress when stderr is not a terminal (cron, systemd, CI; issue 30 item 14)', () => {
  it('prints a plain line per step and one at least every 10 s of a step, with rows and rate', async () => {
    const writer = createRecordingWriter();
    let clock = 0;
    let stderr = '';
    const code = await runCli(['import', 'discogs', discogsSample('artists')], {
      env: { DATABASE_URL: 'postgres://test' },
      stdout: { write: () => true },
      // Each reading of the clock is 4 s later: a line is due every third batch or so.
      stderr: { write: (chunk: string) => (stderr += chunk), isTTY: false, now: () => (clock += 4_000) },
      openDatabase: async () => ({ writer, migrate: async () => [], close: async () => undefined }),
      batchSize: 100,
    });
    expect(code).toBe(EXIT_OK);
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('discogs_20200806_artists.xml.gz: started');
    const periodic = lines.filter((l) => /^discogs_20200806_artists\.xml\.gz: [\d,]+ rows, [\d,]+ rows\/s, \d+% of the file, [\d.]+ s$/.test(l));
    expect(periodic.length).toBeGreaterThan(0);
    expect(lines).toContain('recomputing derived data (slugs, search documents, master records, signals)…');
    expect(lines.some((l) => /^discogs_20200806_artists\.xml\.gz: ended, 1,000 rows in [\d.]+ s$/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^recomputing derived data \(slugs, search documents, master records, signals\): done in [\d.]+ s$/);
  });
});
