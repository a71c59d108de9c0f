/**
 * The argument layer of `catalogue`: `node:util`'s `parseArgs` reads the options (`--help`,
 * `--version`, `--` before a file named like an option), then the positionals select the
 * command. Only this layer knows the command line; each command's body takes a `Command`.
 */
import { parseArgs } from 'node:util';
import type { FeedName } from './import-feed.js';
import type { SeedName } from './seed.js';
import { helpFor, USAGE } from './usage.js';

export type Command =
  | { name: 'help'; text: string }
  | { name: 'version' }
  | { name: 'migrate' }
  | { name: 'refresh' }
  | { name: 'import-discogs'; files: string[] }
  | { name: 'import-feed'; feed: FeedName; file: string }
  | { name: 'seed'; seed: SeedName };

/** A mistake in the command line itself: exit code 2 and a pointer to --help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

export function parseCommand(argv: readonly string[]): Command {
  const { values, positionals } = readArgs(argv);
  if (values.version) return { name: 'version' };
  // `catalogue help import discogs` reads as `catalogue import discogs --help`.
  const asksHelp = values.help === true || positionals.length === 0 || positionals[0] === 'help';
  if (asksHelp) return help(positionals[0] === 'help' ? positionals.slice(1) : positionals);
  const [command, subcommand, ...rest] = positionals;
  switch (command) {
    case 'migrate':
      expectArguments(positionals.slice(1), 0, 'migrate');
      return { name: 'migrate' };
    case 'refresh':
      expectArguments(positionals.slice(1), 0, 'refresh');
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

function readArgs(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    // parseArgs names the option in quotes; its advice about '--' is in our --help instead.
    const option = /'([^']+)'/.exec((error as Error).message)?.[1];
    const what = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 'unknown option' : 'option takes no value:';
    throw new UsageError(option === undefined ? (error as Error).message : `${what} ${option}`);
  }
}

/** `catalogue --help`, or the help of the longest known command the words start with (its files ignored). */
function help(words: readonly string[]): Command {
  if (words.length === 0) return { name: 'help', text: USAGE };
  for (let length = Math.min(words.length, 2); length >= 1; length--) {
    const text = helpFor(words.slice(0, length));
    if (text !== undefined) return { name: 'help', text };
  }
  throw new UsageError(`unknown command ${words[0]}`);
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
