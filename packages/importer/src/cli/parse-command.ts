import type { FeedName } from './import-feed.js';
import type { SeedName } from './seed.js';

export type Command =
  | { name: 'help' }
  | { name: 'migrate' }
  | { name: 'refresh' }
  | { name: 'import-discogs'; files: string[] }
  | { name: 'import-feed'; feed: FeedName; file: string }
  | { name: 'seed'; seed: SeedName };

/** A mistake in the command line itself: exit code 2 and a pointer to --help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseCommand(argv: readonly string[]): Command {
  if (argv.length === 0 || argv.some((arg) => arg === '-h' || arg === '--help' || arg === 'help')) {
    return { name: 'help' };
  }
  const option = argv.find((arg) => arg.startsWith('-'));
  if (option !== undefined) throw new UsageError(`unknown option ${option}`);
  const [command, subcommand, ...rest] = argv;
  switch (command) {
    case 'migrate':
      expectArguments(argv.slice(1), 0, 'migrate');
      return { name: 'migrate' };
    case 'refresh':
      expectArguments(argv.slice(1), 0, 'refresh');
      return { name: 'refresh' };
    case 'import':
      return parseImport(subcommand, rest);
    case 'seed':
      if (subcommand !== 'demo' && subcommand !== 'scale') throw new UsageError('seed needs demo or scale');
      expectArguments(rest, 0, `seed ${subcommand}`);
      return { name: 'seed', seed: subcommand };
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

function parseImport(source: string | undefined, files: string[]): Command {
  switch (source) {
    case 'discogs':
      if (files.length === 0) throw new UsageError('import discogs needs at least one file');
      return { name: 'import-discogs', files };
    case 'bandcamp':
    case 'festivals':
      expectArguments(files, 1, `import ${source}`);
      return { name: 'import-feed', feed: source, file: files[0] as string };
    default:
      throw new UsageError('import needs discogs, bandcamp or festivals');
  }
}

function expectArguments(args: readonly string[], count: number, command: string): void {
  if (args.length === count) return;
  const wanted = count === 0 ? 'no arguments' : count === 1 ? 'exactly one file' : `${count} arguments`;
  throw new UsageError(`${command} takes ${wanted}, got ${args.length === 0 ? 'none' : args.join(' ')}`);
}
