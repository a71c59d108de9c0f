import { access } from 'node:fs/promises';
import { type CatalogueDatabase, type OpenDatabase, type OpenEmbeddedDatabase, openEmbeddedDatabase, openPostgresDatabase } from './database.js';
import type { ImportContext } from './import-discogs.js';
import { importDiscogsFiles } from './import-discogs.js';
import { importDiscogsBulk } from './import-discogs-bulk.js';
import { importFeedFile } from './import-feed.js';
import { type Command, parseCommand, UsageError } from './parse-command.js';
import { type ProgressStream, startStep } from './progress.js';
import { seedCatalogue } from './seed.js';
import { formatCount, Tally } from './tally.js';
import { VERSION } from './version.js';

export interface CliIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout: { write(chunk: string): unknown };
  /** Messages and the progress bar. */
  stderr: ProgressStream;
  /** How to reach the database (default: PostgreSQL through @catalogue/postgres). */
  openDatabase?: OpenDatabase;
  /** How to open the embedded default's data dir when DATABASE_URL is unset (default: PGlite). */
  openEmbedded?: OpenEmbeddedDatabase;
  /** Rows per batch (default: each parser's own). */
  batchSize?: number;
  /** Told when each dump file is in: records read, seconds spent (bench/import reports it). */
  onFileImported?: (file: string, records: number, seconds: number) => void;
  /** Told how long each step after the files took (applying, finish()). */
  onStep?: (step: string, seconds: number) => void;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** Runs one `catalogue …` command line; resolves to the process exit code, never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`catalogue: ${error.message}\nRun catalogue --help for usage.\n`);
    return EXIT_USAGE;
  }
  if (command.name === 'help') {
    io.stdout.write(command.text);
    return EXIT_OK;
  }
  if (command.name === 'version') {
    io.stdout.write(`catalogue ${VERSION}\n`);
    return EXIT_OK;
  }

  const tally = new Tally();
  try {
    await checkFilesExist(command);
    const url = io.env.DATABASE_URL;
    // Without DATABASE_URL: the embedded default, the data dir `npm start` serves (docs/decisions.md §1).
    const database = url
      ? await (io.openDatabase ?? openPostgresDatabase)(url, io.onStep ? { onStep: io.onStep } : {})
      : await (io.openEmbedded ?? openEmbeddedDatabase)(io.env.CATALOGUE_DATA_DIR || './.data');
    try {
      await runCommand(
        command,
        database,
        { writer: database.writer, tally, progress: io.stderr, batchSize: io.batchSize, onFileImported: io.onFileImported, onStep: io.onStep },
        io,
      );
    } finally {
      await database.close();
    }
    return EXIT_OK;
  } catch (error) {
    io.stderr.write(`catalogue: ${error instanceof Error ? error.message : String(error)}\n`);
    if (tally.total() > 0) {
      io.stderr.write(`catalogue: complete batches written before the error: ${tally.summary()}\n`);
    }
    return EXIT_FAILURE;
  }
}

/** What completes a catalogue whose derived data an interrupted run left out of date. */
export const STALE_HINT =
  'catalogue: the imported rows are in but derived data (slugs, search documents, master records, signals) is not complete: run `npx catalogue refresh` to complete it';

async function runCommand(command: Command, database: CatalogueDatabase, context: ImportContext, io: CliIo): Promise<void> {
  if (database.description) io.stderr.write(`${database.description}\n`);
  // Imports need the schema; migrations are idempotent, so applying them first is always safe.
  const applied = await database.migrate();
  if (command.name !== 'refresh' && (await database.derivedStale?.())) {
    io.stderr.write('catalogue: an earlier import did not complete derived data; this run completes it\n');
  }
  if (command.name === 'migrate') {
    io.stdout.write(applied.length === 0 ? 'schema is up to date\n' : `applied ${applied.length} migrations: ${applied.join(', ')}\n`);
    return;
  }
  switch (command.name) {
    case 'import-discogs':
      if (database.bulk) await importDiscogsBulk(command.files, database.bulk, context);
      else await importDiscogsFiles(command.files, context);
      break;
    case 'import-feed':
      await importFeedFile(command.feed, command.file, context);
      break;
    case 'seed':
      await seedCatalogue(command.seed, context);
      break;
    case 'refresh':
      break;
    default:
      return;
  }
  // Derived data (slugs, search documents, master records, signals) only after every batch of
  // the run is in.
  const derived = startStep(io.stderr, 'recomputing derived data (slugs, search documents, master records, signals)');
  try {
    await (command.name === 'refresh' ? context.writer.finish({ force: true }) : context.writer.finish());
    derived.done();
  } catch (error) {
    // docs/decisions.md §5: derived data is never left half-built silently.
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${STALE_HINT}`, { cause: error });
  }
  const unchanged = context.unchanged ? ` (${formatCount(context.unchanged)} unchanged records skipped)` : '';
  io.stdout.write(command.name === 'refresh' ? 'derived data recomputed\n' : `imported ${context.tally.summary()}${unchanged}\n`);
}

/** Fails before anything is written when a named file is missing. */
async function checkFilesExist(command: Command): Promise<void> {
  const files = command.name === 'import-discogs' ? command.files : command.name === 'import-feed' ? [command.file] : [];
  for (const file of files) {
    try {
      await access(file);
    } catch {
      throw new Error(`${file}: no such file`);
    }
  }
}
