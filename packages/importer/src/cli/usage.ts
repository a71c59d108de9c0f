/** The text of `catalogue --help`. */
export const USAGE = `Usage: catalogue <command> [arguments]

Load the music catalogue into PostgreSQL. DATABASE_URL selects the database
(e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/catalogue); without it, the
embedded database npm start serves ($CATALOGUE_DATA_DIR/pg, default ./.data/pg),
which must not be in use by a running server.

Commands:
  migrate                      apply pending schema migrations (import and seed
                               also apply them first)
  import discogs <file>...     import Discogs XML dumps (.xml or .xml.gz; artists,
                               labels, masters or releases, detected from the root
                               element), in the order given
  import bandcamp <file>       import a Bandcamp signals feed (.jsonl or .jsonl.gz)
  import festivals <file>      import a festival lineups feed (.jsonl or .jsonl.gz)
  refresh                      recompute derived data (slugs, search documents, stored
                               master records, signals) without importing; run it
                               once after an upgrade that adds derived data
  seed demo                    write the generated demo catalogue
  seed scale                   write the generated scale catalogue (about 1,000,000
                               masters; streamed)

Options:
  -h, --help                   show this help

Re-importing a file changes nothing: rows are replaced by id, and on PostgreSQL unchanged
Discogs records are skipped unread. On bad input the import stops with a message naming
the file and the record or line and the exit code is 1 (2 for a usage error); a Discogs
import on PostgreSQL then changes nothing at all, other imports keep the batches written.
See packages/importer/README.md for the JSONL feed formats.
`;
