/**
 * The help texts of `catalogue`: one entry per command, from which both `catalogue --help` (the
 * summary of all) and `catalogue <command> --help` (one command in full) are written, so the two
 * never disagree (issue 16 item 8).
 */
export interface CommandHelp {
  /** The command's words, e.g. `['import', 'discogs']`. */
  readonly words: readonly string[];
  /** What follows the words in the synopsis, e.g. `<file>...`. */
  readonly args: string;
  /** The lines of the summary in `catalogue --help`. */
  readonly summary: readonly string[];
  /** What `catalogue <command> --help` adds below the synopsis. */
  readonly details: string;
}

const DATABASE = 'DATABASE_URL selects the database (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/catalogue).';
const REIMPORT = `Re-importing a file changes nothing: rows are replaced by id. On bad input the import stops
with a message naming the file and the record or line; the batch being assembled is not
written and the exit code is 1. Migrations are applied first.`;

export const COMMANDS: readonly CommandHelp[] = [
  {
    words: ['migrate'],
    args: '',
    summary: ['apply pending schema migrations (import and seed', 'also apply them first)'],
    details: `Applies the schema migrations the database does not have yet and prints their names.

${DATABASE}`,
  },
  {
    words: ['import', 'discogs'],
    args: '<file>...',
    summary: ['import Discogs XML dumps (.xml or .xml.gz; artists,', 'labels, masters or releases, detected from the root', 'element), in the order given'],
    details: `Imports Discogs monthly XML dumps (.xml or .xml.gz) in the order given; each file's kind
(artists, labels, masters or releases) is read from its root element. Derived data is
recomputed once, after the last file.

${REIMPORT}

${DATABASE}`,
  },
  {
    words: ['import', 'bandcamp'],
    args: '<file>',
    summary: ['import a Bandcamp signals feed (.jsonl or .jsonl.gz)'],
    details: `Imports a Bandcamp signals feed (.jsonl or .jsonl.gz; one line per artist and observation
date; the format is in packages/importer/README.md).

${REIMPORT}

${DATABASE}`,
  },
  {
    words: ['import', 'festivals'],
    args: '<file>',
    summary: ['import a festival lineups feed (.jsonl or .jsonl.gz)'],
    details: `Imports a festival lineups feed (.jsonl or .jsonl.gz; the format is in
packages/importer/README.md).

${REIMPORT}

${DATABASE}`,
  },
  {
    words: ['refresh'],
    args: '',
    summary: [
      'recompute derived data (slugs, search documents, stored',
      'master records, signals) without importing; run it',
      'once after an upgrade that adds derived data',
    ],
    details: `Recomputes derived data (slugs, search documents, stored master records, signals) from the
rows already imported, without importing anything.

${DATABASE}`,
  },
  {
    words: ['seed', 'demo'],
    args: '',
    summary: ['write the generated demo catalogue'],
    details: `Writes the deterministic demo catalogue (the one the embedded default starts with).

${DATABASE}`,
  },
  {
    words: ['seed', 'scale'],
    args: '',
    summary: ['write the generated scale catalogue (about 1,000,000', 'masters; streamed)'],
    details: `Writes the deterministic scale catalogue (about 1,000,000 masters, 300,000 artists, 50,000
labels, 2,000 festivals), streamed in batches.

${DATABASE}`,
  },
];

const OPTIONS = `Options:
  -h, --help                   show this help (after a command: that command's help)
  --version                    print the version`;

const COLUMN = 30;

function synopsis(command: CommandHelp): string {
  return [...command.words, command.args].filter((part) => part !== '').join(' ');
}

function summaryLines(command: CommandHelp): string {
  const [first, ...rest] = command.summary;
  const head = `  ${synopsis(command).padEnd(COLUMN - 2)} ${first}`;
  return [head, ...rest.map((line) => `${' '.repeat(COLUMN)} ${line}`)].join('\n');
}

/** The text of `catalogue --help`. */
export const USAGE = `Usage: catalogue <command> [arguments]

Load the music catalogue into PostgreSQL. DATABASE_URL selects the database
(e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/catalogue); without it, the
embedded database npm start serves ($CATALOGUE_DATA_DIR/pg, default ./.data/pg),
which must not be in use by a running server.

Commands:
${COMMANDS.map(summaryLines).join('\n')}

${OPTIONS}

Run catalogue <command> --help for one command in full. A file whose name starts with '-'
goes after '--'. Re-importing a file changes nothing: rows are replaced by id, and on
PostgreSQL unchanged Discogs records are skipped unread. On bad input the import stops with
a message naming the file and the record or line and the exit code is 1 (2 for a usage
error); a Discogs import on PostgreSQL then changes nothing at all, other imports keep the
batches written.
See packages/importer/README.md for the JSONL feed formats.
`;

/**
 * The help of the commands under `words`: one command in full, or the summary of a group
 * (`import`, `seed`); undefined when no command starts with those words.
 */
export function helpFor(words: readonly string[]): string | undefined {
  const matching = COMMANDS.filter((command) => words.every((word, i) => command.words[i] === word));
  if (matching.length === 0) return undefined;
  const [only] = matching;
  if (matching.length === 1 && only && only.words.length === words.length) {
    return `Usage: catalogue ${synopsis(only)}\n\n${only.details}\n\n${OPTIONS}\n`;
  }
  return `Usage: catalogue ${words.join(' ')} <${matching.map((c) => c.words[words.length]).join('|')}> [arguments]\n\nCommands:\n${matching.map(summaryLines).join('\n')}\n\n${OPTIONS}\n`;
}
