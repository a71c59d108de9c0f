/**
 * What the clients ask for, sampled from the loaded catalogue with a fixed seed so every run
 * (and every fix) is measured on the same requests: title words drawn by frequency (a word of a
 * random master's title) with the genre and style of the master they came from (search always
 * has hits), real master ids, real artist names and cluster ids.
 */
import postgres from 'postgres';

export interface Targets {
  /** Query strings of search and facets: q + genre + style, taken from one master. */
  searchQueries: string[];
  /**
   * The same shape with one typo in q (issue 29): a title word of 5+ letters with one edit in
   * its middle (a transposition, a deletion or a substitution, in turn), so search corrects it.
   */
  typoQueries: string[];
  masterIds: number[];
  artistNames: string[];
  artistClusterIds: number[];
}

const SAMPLES = 400;
const FUNCTION_WORDS = new Set(['the', 'and', 'for']);
/**
 * Master ids sampled: the master route reads each at most once (every read misses the record
 * cache, as a read of the catalogue's long tail does), so there must be more of them than a
 * route's warm-up and measured requests together (run.ts caps the route there).
 */
const MASTER_SAMPLES = 100_000;
/**
 * The batch route's ids: the first 5,000 sampled (a multiple of the batch size, so each batch
 * of consecutive ids holds distinct ids), repeating every ten batches as before the session of 2026-11-26 22:00.
 * Random order with a fixed seed makes these the same 5,000 whatever MASTER_SAMPLES is.
 */
export const BATCH_SAMPLES = 5_000;

export async function sampleTargets(url: string): Promise<Targets> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    // setseed makes random() repeatable, so the same rows are picked on every run.
    await sql`SELECT setseed(0.4242)`;
    const masters = await sql<Array<{ id: number; title: string; genre: string | null; style: string | null }>>`
      SELECT master_id AS id, title, genres[1] AS genre, styles[1] AS style
      FROM masters ORDER BY random() LIMIT ${MASTER_SAMPLES}`;
    const artists = await sql<Array<{ cluster_id: number; name: string }>>`
      SELECT cluster_id, name FROM artists WHERE master_count > 0 ORDER BY random() LIMIT ${SAMPLES}`;
    const searchQueries: string[] = [];
    const typoQueries: string[] = [];
    for (const [i, master] of masters.entries()) {
      const long = master.title.split(/[^A-Za-z]+/).filter((w) => w.length >= 5);
      const typed = long[i % Math.max(long.length, 1)];
      if (typed && master.genre && master.style && typoQueries.length < SAMPLES) {
        typoQueries.push(
          new URLSearchParams({ q: typoOf(typed.toLowerCase(), typoQueries.length), genre: master.genre, style: master.style, limit: '20' }).toString(),
        );
      }
      // A word of a random master's title: words come out as often as titles hold them, so
      // common words are asked as often as users type them (issue 14). Function words nobody
      // searches alone are skipped.
      const words = master.title.split(/[^A-Za-z0-9]+/).filter((w) => w.length >= 3 && !FUNCTION_WORDS.has(w.toLowerCase()));
      const word = words[i % Math.max(words.length, 1)];
      if (!word || !master.genre || !master.style) continue;
      const params = new URLSearchParams({ q: word, genre: master.genre, style: master.style, limit: '20' });
      if (searchQueries.length < SAMPLES) searchQueries.push(params.toString());
      if (searchQueries.length >= SAMPLES && typoQueries.length >= SAMPLES) break;
    }
    return {
      searchQueries: searchQueries.slice(0, SAMPLES),
      typoQueries,
      masterIds: masters.map((master) => master.id),
      artistNames: artists.map((artist) => artist.name),
      artistClusterIds: artists.map((artist) => artist.cluster_id),
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** One edit in the middle of `word` (5+ letters): the n-th typo transposes, deletes or substitutes, in turn. */
function typoOf(word: string, n: number): string {
  const middle = Math.floor(word.length / 2);
  switch (n % 3) {
    case 0:
      return word.slice(0, middle - 1) + word[middle] + word[middle - 1] + word.slice(middle + 1);
    case 1:
      return word.slice(0, middle) + word.slice(middle + 1);
    default:
      return word.slice(0, middle) + (word[middle] === 'q' ? 'x' : 'q') + word.slice(middle + 1);
  }
}
