/** search and facets over search_documents. */
import type { AbortProbe, FacetName, FacetsQuery, FacetsResult, FacetValue, SearchHitData, SearchPage, SearchPosition, SearchQuery } from '@catalogue/core';
import { compareText, correctablePositions, correctedOf, type MatchMode, tokensOf } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import { facetValuesOf, type StoredFacet, storedFacetOf } from './facet-values.js';
import type { Reader } from './reader.js';
import {
  correctedQueryText,
  hasAnyFilter,
  lower,
  matchConditions,
  type QueryText,
  queryTextOf,
  scoreExpression,
  styleWordCodesReady,
  styleWordIds,
  styleWordRange,
  styleWordsReady,
} from './search-filter.js';
import { correctionsOf, type FoundCorrections } from './typos.js';

/** Whether some vocabulary word may start with a word (prefix-filter.ts; false: surely none). */
export interface PrefixHint {
  mayPrefix(word: string): boolean;
}

const KIND_OF_TYPE = { master: 0, artist: 1, label: 2, festival: 3 } as const;
const TYPE_OF_KIND = ['master', 'artist', 'label', 'festival'] as const;

interface HitRow extends Omit<SearchHitData, 'type'> {
  kind: number;
}

/**
 * Style-word entries under which a one-word search with a style filter scores its candidates
 * at once (see searchDocuments). At 1 M masters, 174 of the bench's 400 queries had fewer than
 * 100 and read 4,000 ranked entries in vain first (1–2 ms) in all but 48 of the 222 below it;
 * of the 178 at or above it, 12 did.
 */
export const DIRECT_SCORING_BELOW = 100;

/**
 * A page of hits, as core's memory search (catalogue/search.ts): documents with every query
 * token; only when none of the type and filters asked has them all (an index probe, made
 * only when the page came back empty), documents with some of them.
 *
 * One word: the page from search_terms when it holds a whole page (see topByTerm); else as
 * below. With a style filter whose word + style entries number fewer than `directScoringBelow`
 * (counted up to that many), the few candidates are scored at once: the ranked entries would
 * mostly be read in vain. Either way the answer is the same.
 */
export async function searchDocuments(
  sql: Sql,
  read: Reader,
  query: SearchQuery,
  abort?: AbortProbe,
  directScoringBelow: number = DIRECT_SCORING_BELOW,
  prefixes?: PrefixHint,
): Promise<SearchHitData[]> {
  return (await searchPageOf(sql, read, query, abort, directScoringBelow, TERM_SCAN_CAP, prefixes)).hits;
}

/**
 * searchDocuments with the words it corrected (core's search.ts, "Typos"): only when no
 * document of the type and filters asked has every token as typed (the probe the "some"
 * fallback makes), the correctable words get their corrections from search_vocabulary
 * (typos.ts); with any, the page is of the documents every token matches through a variant
 * (else, the fallback, some token), scored with the exact-before-corrected level; with a style
 * filter the word + style entries of every variant find them. A one-word query is paged from
 * search_terms, as typed (topByTerm) and corrected (topByCorrections), when those rows fill the
 * page.
 *
 * Probes whose answer is already known are not sent: a first page (no cursor) that came back
 * empty has no complete hit; a first page with a word no vocabulary word starts with (`prefixes`,
 * the process's filter of the vocabulary: vocabulary-hint.ts) asks for its corrections first,
 * with the probe for a complete hit in the same statement (one statement instead of two or
 * three for a typo: the word + style count, the ranked or scored page, then the corrections); a word no master of the style filter holds (its word + style
 * entries counted 0) has no hit at all; and a one-word query's "some" fallback is its "all"
 * page (one token is matched or not), so it is never asked for.
 */
export async function searchPageOf(
  sql: Sql,
  read: Reader,
  query: SearchQuery,
  abort?: AbortProbe,
  directScoringBelow: number = DIRECT_SCORING_BELOW,
  termScanCap: number = TERM_SCAN_CAP,
  prefixes?: PrefixHint,
): Promise<SearchPage> {
  const text = queryTextOf(query.q);
  const kindCondition = query.type === 'all' ? sql`` : sql`AND kind = ${KIND_OF_TYPE[query.type]}`;
  const after = query.after;
  const afterCondition = after
    ? sql`WHERE score < ${after.score}::float8
            OR (score = ${after.score}::float8 AND (kind > ${KIND_OF_TYPE[after.type]} OR (kind = ${KIND_OF_TYPE[after.type]} AND id > ${after.id})))`
    : sql``;
  const styles = query.filters.style?.length ? lower(query.filters.style) : null;
  const styleWords = styles !== null && text.tokens.length > 0 && (await styleWordsReady(sql, read, abort));
  const pageOf = (searched: QueryText, mode: MatchMode, byStyleWords: boolean) =>
    read(
      abort,
      () => sql<HitRow[]>`
    SELECT * FROM (
      SELECT kind, id, slug, name, year, artists, genres, styles, credits, ${scoreExpression(sql, searched, mode)} AS score
      FROM search_documents
      WHERE ${matchConditions(sql, searched, query.filters, mode, byStyleWords)} ${kindCondition}
    ) AS hits
    ${afterCondition}
    ORDER BY score DESC, kind, id
    LIMIT ${query.limit}`,
    );
  const page = (mode: MatchMode) => pageOf(text, mode, styleWords);
  const anyComplete = async (searched: QueryText, byStyleWords: boolean) =>
    (
      await read(
        abort,
        () => sql`SELECT 1 FROM search_documents WHERE ${matchConditions(sql, searched, query.filters, 'all', byStyleWords)} ${kindCondition} LIMIT 1`,
      )
    ).length > 0;
  /** Whether an empty "all" page (with this query's cursor) leaves complete hits elsewhere: only a later page's cursor can. */
  const completeBeyond = (searched: QueryText) => (after ? anyComplete(searched, styleWords) : Promise.resolve(false));
  const token = text.tokens.length === 1 ? (text.tokens[0] as string) : null;
  // A one-word query under a style filter: counted by its word + style entries (search_style_words).
  const styleWord = token !== null && styleWords && styles !== null ? { token, styles } : null;
  // Its corrections' word + style entries are counted in the corrections' statement.
  const styleEntries = styleWord ? { styles: styleWord.styles, cap: directScoringBelow } : undefined;
  if (after === null && prefixes !== undefined && correctablePositions(text.tokens).some((position) => !prefixes.mayPrefix(text.tokens[position] as string))) {
    // A word no vocabulary word starts with (the hint, prefix-filter.ts): the query has no complete
    // hit, so its corrections are asked for at once, with the probe that makes sure of it in the
    // same statement — for one word under a style filter, whether it has a word + style entry (as
    // the count below, whose 0 skips the "all" page), else whether the "all" page has a row. Only
    // if the hint was wrong (a filter of an older generation) does the query take the path below,
    // one statement later.
    const complete =
      styleWord && directScoringBelow > 0
        ? sql`EXISTS (SELECT 1 FROM search_style_words WHERE ${styleWordRange(sql, styleWord.token, styleWord.styles)})`
        : sql`EXISTS (SELECT 1 FROM search_documents WHERE ${matchConditions(sql, text, query.filters, 'all', styleWords)} ${kindCondition})`;
    const found = await correctionsOf(sql, read, text.tokens, abort, styleEntries, complete);
    if (found.typedMatched === false) return correctedPageOf(found);
  }
  // The word's word + style entries (counted up to directScoringBelow): the masters the style filter and the word find.
  const entries = styleWord ? await styleWordCount(sql, read, styleWord.token, styleWord.styles, directScoringBelow, abort) : null;
  // Known empty: no master of the styles has a word the token prefixes (counted: a cap of 0 counts nothing).
  const none = entries === 0 && directScoringBelow > 0;
  const direct = entries !== null && entries < directScoringBelow;
  const ranked = token !== null && !direct ? await topByTerm(sql, read, token, query, abort) : null;
  if (ranked && ranked.length === query.limit) return { hits: ranked.map(hitOf), corrected: {} };
  const rows = none ? [] : await page('all');
  if (rows.length === 0 && text.tokens.length > 0 && (none || !(await completeBeyond(text)))) {
    return correctedPageOf(await correctionsOf(sql, read, text.tokens, abort, styleEntries));
  }
  return { hits: rows.map(hitOf), corrected: {} };

  /** The page of a query with no complete hit, by its corrections (none: some token, or no hit for one word). */
  async function correctedPageOf(found: FoundCorrections): Promise<SearchPage> {
    const { corrections, documentsOf } = found;
    if (corrections.size === 0) return { hits: (token !== null ? [] : await page('some')).map(hitOf), corrected: {} };
    const corrected = correctedQueryText(text, corrections);
    let rows: HitRow[];
    if (token !== null) rows = await correctedWordPage(token, corrected, corrections.get(0) as string[], documentsOf, found.styleEntriesOf);
    else {
      rows = await pageOf(corrected, 'all', styleWords);
      if (rows.length === 0 && !(await completeBeyond(corrected))) rows = await pageOf(corrected, 'some', styleWords);
    }
    const hits = rows.map(hitOf);
    return { hits, corrected: correctedOf(text.tokens, corrections, hits, tokensOf) };
  }

  /**
   * A corrected one-word query's page: with a style filter whose corrections' word + style
   * entries (counted by correctionsOf in its statement, one round trip fewer) number fewer than
   * directScoringBelow, those few scored at once (none: no hit);
   * else from the corrections' search_terms rows when they fill the page (topByCorrections),
   * else scored. The rows are not read when the documents holding the corrections (a row's
   * entry holds its word whole) are fewer than a page.
   */
  async function correctedWordPage(
    typed: string,
    corrected: QueryText,
    variants: string[],
    documentsOf: (word: string) => number,
    styleEntriesOf: (word: string) => number | undefined,
  ): Promise<HitRow[]> {
    // Counted beside the corrections whenever there is a style filter (none counted under a cap of 0).
    const found = styleWords && styles !== null ? variants.reduce((sum, variant) => sum + (styleEntriesOf(variant) ?? 0), 0) : null;
    if (found === 0 && directScoringBelow > 0) return [];
    const holding = variants.reduce((sum, variant) => sum + documentsOf(variant), 0);
    if ((found === null || found >= directScoringBelow) && holding >= query.limit) {
      const top = await topByCorrections(sql, read, typed, variants, query, termScanCap, abort);
      if (top && top.length === query.limit) return top;
    }
    return pageOf(corrected, 'all', styleWords);
  }
}

/** The word + style entries of `token` under `styles`, counted up to `cap` (an index range). */
async function styleWordCount(sql: Sql, read: Reader, token: string, styles: string[], cap: number, abort?: AbortProbe): Promise<number> {
  if (cap <= 0) return 0;
  const [row] = await read(
    abort,
    () => sql<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM search_style_words WHERE ${styleWordRange(sql, token, styles)} LIMIT ${cap}) AS few`,
  );
  return row?.n ?? 0;
}

function hitOf(row: HitRow): SearchHitData {
  return {
    type: TYPE_OF_KIND[row.kind] as SearchHitData['type'],
    id: row.id,
    slug: row.slug,
    name: row.name,
    year: row.year,
    artists: row.artists,
    genres: row.genres,
    styles: row.styles,
    // jsonb keeps keys in its own order: rebuilt in the order core serves (cluster_id, slug, name)
    ...(row.credits ? { credits: row.credits.map((credit) => ({ cluster_id: credit.cluster_id, slug: credit.slug, name: credit.name })) } : {}),
    score: row.score,
  };
}

/** Index entries a one-word page reads before it gives up and lets search count (selective filters). */
const TERM_SCAN_CAP = 4_000;

/**
 * The first `limit` hits of a one-word query from search_terms (migration 0013), or fewer when
 * the word has fewer rows there that pass the filters within TERM_SCAN_CAP entries. A document
 * with a row scores ≥ 1033 and the row holds its exact score; every other match scores < 1033
 * (it lacks the whole word or a title/artist word it prefixes). So a full page read here in
 * (score DESC, kind, id) order is exactly the page the scoring scan would return; a short one
 * says nothing, and the caller scores as before. Genre and style are tested on the index entry;
 * any other filter on the document, for the few rows read.
 */
async function topByTerm(sql: Sql, read: Reader, token: string, query: SearchQuery, abort?: AbortProbe): Promise<HitRow[]> {
  const after = query.after ? { score: query.after.score, kind: KIND_OF_TYPE[query.after.type], id: query.after.id } : null;
  const { kindCondition, genre, style, documentConditions, afterCondition } = termRowConditions(sql, query, after);
  return read(
    abort,
    () => sql<HitRow[]>`
    SELECT d.kind, d.id, d.slug, d.name, d.year, d.artists, d.genres, d.styles, d.credits, t.score
    FROM (
      SELECT kind, id, score, genre_keys, style_keys FROM search_terms t
      WHERE t.token = ${token} ${afterCondition}
      ORDER BY t.score DESC, t.kind, t.id
      LIMIT ${TERM_SCAN_CAP}
    ) AS t
    JOIN search_documents d ON d.kind = t.kind AND d.id = t.id
    WHERE TRUE ${kindCondition} ${genre} ${style} AND ${documentConditions}
    ORDER BY t.score DESC, t.kind, t.id
    LIMIT ${query.limit}`,
  );
}

/**
 * What a search_terms row `t`, joined to its document `d`, must meet in topByTerm and
 * topByCorrections: as matchConditions and searchDocuments, facet filters admit masters only,
 * and the type asked; genre and style are tested on the row, any other filter on the document
 * (matchConditions names its columns unqualified); and the row comes after `after` in
 * (score DESC, kind, id) order.
 */
function termRowConditions(sql: Sql, query: SearchQuery, after: { score: number; kind: number; id: number } | null) {
  const { filters } = query;
  const kindCondition = sql`${hasAnyFilter(filters) ? sql`AND t.kind = 0` : sql``} ${query.type === 'all' ? sql`` : sql`AND t.kind = ${KIND_OF_TYPE[query.type]}`}`;
  const genre = filters.genre?.length ? sql`AND t.genre_keys && ${lower(filters.genre)}::text[]` : sql``;
  const style = filters.style?.length ? sql`AND t.style_keys && ${lower(filters.style)}::text[]` : sql``;
  const { genre: _genre, style: _style, ...others } = filters;
  const documentConditions = hasAnyFilter(others)
    ? sql`EXISTS (SELECT 1 FROM search_documents x WHERE x.kind = d.kind AND x.id = d.id AND ${matchConditions(sql, queryTextOf(null), others)})`
    : sql`TRUE`;
  const afterCondition = after
    ? sql`AND (t.score < ${after.score}::float8
            OR (t.score = ${after.score}::float8 AND (t.kind > ${after.kind} OR (t.kind = ${after.kind} AND t.id > ${after.id}))))`
    : sql``;
  return { kindCondition, genre, style, documentConditions, afterCondition };
}

/**
 * A corrected one-word query's top level (core's search.ts, "Typos"): each entry is read by its
 * chosen variant c (the first of the query's variants it holds), and scores
 * (((1·128 + 0)·128 + primary)·4 + phrase)·2 + whole + popularity; `exact` is 0 throughout, as
 * no entry of the type and filters asked holds the word typed (else nothing is corrected).
 * primary = whole = 1 (c whole, and prefixing a title/artist word) is the top level, 131081 or
 * 131085 (the name is c) + popularity; every other hit scores below 131081. An entry is at the
 * top level exactly when search_terms holds a row for it under its chosen variant, scoring
 * 1033 or 1037 (the name is c) + popularity: 130048 less, the same order. So the entries of the
 * corrections' rows (each correction's in (score DESC, kind, id) order, merged) that hold no
 * earlier variant and pass the filters are the top of the scoring's page, in its order; a full
 * page of them is the page. Rows under a correction an earlier variant prefixes never count
 * (their entry holds that earlier one), so they are not read.
 *
 * Per correction, its first `limit` such entries within its first `cap` rows (TERM_SCAN_CAP; as
 * topByTerm, genre and style tested on the row, the other filters and the earlier variants on
 * the document, read lazily: a common correction stops after a page). A correction that gave
 * fewer than `limit` and has `cap` rows or more was cut: its unread rows may rank
 * before the other corrections' later ones, so only entries up to the first of the cut
 * corrections' last read rows count. The score each hit carries is the scoring's own
 * (scoreExpression); a cursor is mapped to its row score (rowCursorOf), or answered by the
 * caller's scoring when it is not on the top level. Returns null when the page cannot come
 * from here.
 */
async function topByCorrections(
  sql: Sql,
  read: Reader,
  typed: string,
  variants: readonly string[],
  query: SearchQuery,
  cap: number,
  abort?: AbortProbe,
): Promise<HitRow[] | null> {
  const after = query.after ? rowCursorOf(query.after) : null;
  if (query.after && !after) return null;
  const searched = [typed, ...variants];
  // Corrections no earlier variant prefixes, with their place among the variants (1: the first correction).
  const streams = variants.flatMap((variant, i) => (searched.slice(0, i + 1).some((earlier) => variant.startsWith(earlier)) ? [] : [{ variant, n: i + 1 }]));
  if (streams.length === 0) return [];
  // At place n (an SQL array's n-th element), the variants before it as one prefix tsquery: an entry holding any is read by that one.
  const earlier = variants.map((_, i) =>
    searched
      .slice(0, i + 1)
      .map((variant) => `'${variant}':*`)
      .join(' | '),
  );
  const { kindCondition, genre, style, documentConditions, afterCondition } = termRowConditions(sql, query, after);
  const score = scoreExpression(sql, correctedQueryText(queryTextOf(typed), new Map([[0, [...variants]]])));
  const words = streams.map((stream) => stream.variant);
  const places = streams.map((stream) => stream.n);
  const rows = await read(
    abort,
    () => sql<HitRow[]>`
    WITH found AS MATERIALIZED (
      SELECT v.n, f.*
      FROM unnest(${words}::text[], ${places}::int[]) AS v(word, n)
      CROSS JOIN LATERAL (
        SELECT t.kind, t.id, t.score AS term_score, d.slug, d.name, d.year, d.artists, d.genres, d.styles, d.credits, ${score} AS score
        FROM (
          SELECT kind, id, score, genre_keys, style_keys FROM search_terms t
          WHERE t.token = v.word ${afterCondition}
          ORDER BY t.score DESC, t.kind, t.id
          LIMIT ${cap}
        ) AS t
        JOIN search_documents d ON d.kind = t.kind AND d.id = t.id
        WHERE TRUE ${kindCondition} ${genre} ${style} AND ${documentConditions} AND NOT (d.tsv @@ (${earlier}::text[])[v.n]::tsquery)
        ORDER BY t.score DESC, t.kind, t.id
        LIMIT ${query.limit}
      ) AS f
    )${
      streams.length === 1
        ? // One correction's rows are all read before its cut (its `cap`-th row): no bound excludes any.
          sql`
    SELECT kind, id, slug, name, year, artists, genres, styles, credits, score FROM found f`
        : sql`,
    bound AS (
      SELECT c.term_score, c.kind, c.id
      FROM unnest(${words}::text[], ${places}::int[]) AS v(word, n)
      CROSS JOIN LATERAL (
        SELECT t.score AS term_score, t.kind, t.id FROM search_terms t
        WHERE t.token = v.word ${afterCondition}
        ORDER BY t.score DESC, t.kind, t.id
        OFFSET ${cap - 1} LIMIT 1
      ) AS c
      WHERE (SELECT count(*) FROM found WHERE found.n = v.n) < ${query.limit}
      ORDER BY c.term_score DESC, c.kind, c.id
      LIMIT 1
    )
    SELECT kind, id, slug, name, year, artists, genres, styles, credits, score FROM found f
    WHERE NOT EXISTS (SELECT 1 FROM bound b WHERE f.term_score < b.term_score OR (f.term_score = b.term_score AND (f.kind, f.id) > (b.kind, b.id)))`
    }
    ORDER BY f.term_score DESC, f.kind, f.id
    LIMIT ${query.limit}`,
  );
  // The scoring's own scores, on the top level and in the rows' order, or the caller scores (never expected).
  const inOrder = rows.every((hit, i) => hit.score >= TOP_CORRECTED_POINTS && (i === 0 || hit.score <= (rows[i - 1] as HitRow).score));
  return inOrder ? rows : null;
}

/** The top level of a corrected one-word query (topByCorrections): 131081 = ((16384 + 1)·4 + 0)·2 + 1. */
const TOP_CORRECTED_POINTS = 131_081;
/** Its points less a search_terms row's (1033 or 1037): the same level read from the row. */
const CORRECTED_ROW_OFFSET = 130_048;

/**
 * A cursor on a corrected one-word query's top level, as the row score its entry has in
 * search_terms: its score is some points + popularity with points 131081 or 131085 and
 * popularity a round6 value (core's round6), both recovered exactly (the popularity is under 1
 * and the sum is exact to 2⁻³⁶), and the row score is their sum less 130048 as PostgreSQL adds
 * them. Every entry's score orders against the cursor as its row score does against this one
 * (distinct round6 popularities differ by 10⁻⁶, far above either sum's rounding). Null when the
 * cursor is not of that form (a later page of the levels below): the caller scores.
 */
export function rowCursorOf(after: SearchPosition): { score: number; kind: number; id: number } | null {
  const points = Math.floor(after.score);
  if (points !== TOP_CORRECTED_POINTS && points !== TOP_CORRECTED_POINTS + 4) return null;
  const popularity = Math.round((after.score - points) * 1_000_000) / 1_000_000;
  if (points + popularity !== after.score) return null;
  return { score: points - CORRECTED_ROW_OFFSET + popularity, kind: KIND_OF_TYPE[after.type], id: after.id };
}

function compareFacetValues(a: FacetValue, b: FacetValue): number {
  return b.count - a.count || (typeof a.value === 'number' && typeof b.value === 'number' ? a.value - b.value : compareText(String(a.value), String(b.value)));
}

interface CountRow {
  facet: StoredFacet;
  value: string;
  count: number;
}

/** Rows of every requested facet → the answer: core's tie order (compareText) decides the cut. */
function facetsFrom(names: readonly FacetName[], rows: readonly CountRow[], limit: number): FacetsResult['facets'] {
  const byFacet = new Map<StoredFacet, CountRow[]>();
  for (const row of rows) byFacet.set(row.facet, [...(byFacet.get(row.facet) ?? []), row]);
  return Object.fromEntries(
    names.map((name) => {
      const numeric = name === 'year_from' || name === 'year_to';
      const values = (byFacet.get(storedFacetOf(name)) ?? []).map((row): FacetValue => ({ value: numeric ? Number(row.value) : row.value, count: row.count }));
      return [name, values.sort(compareFacetValues).slice(0, limit)];
    }),
  );
}

/**
 * Every value tied with the limit-th count of its facet, so the JS cut above sees all ties.
 * `counts` must be a relation (facet, `key`, count): the values, or their codes.
 */
function keepTopTies(sql: Sql, limit: number, key: 'value' | 'code' = 'value') {
  return sql`
    SELECT facet, ${sql(key)}, count FROM (
      SELECT facet, ${sql(key)}, count,
             nth_value(count, ${Math.max(limit, 1)}) OVER (PARTITION BY facet ORDER BY count DESC ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS cut
      FROM counts
    ) AS ranked
    WHERE count >= coalesce(cut, 0)`;
}

/**
 * Whole-catalogue facets come from facet_totals (finish() precomputed them); any q or filter
 * counts live, in one statement: the matching masters are found once and every requested
 * facet is counted over them.
 */
export async function facetCounts(sql: Sql, read: Reader, query: FacetsQuery, abort?: AbortProbe): Promise<FacetsResult> {
  const text = queryTextOf(query.q);
  const stored = [...new Set(query.facets.map(storedFacetOf))];
  if (text.tokens.length === 0 && !hasAnyFilter(query.filters)) {
    const [state, rows] = await Promise.all([
      read(abort, () => sql<Array<{ masters: number }>>`SELECT masters FROM facet_state`),
      stored.length === 0
        ? Promise.resolve([] as CountRow[])
        : // Per facet: the limit-th count (index facet_totals_count), then the values at or above it.
          read(
            abort,
            () => sql<CountRow[]>`
            SELECT f.facet, t.value, t.count
            FROM unnest(${stored}::text[]) AS f(facet)
            LEFT JOIN LATERAL (
              SELECT count AS cut FROM facet_totals WHERE facet = f.facet ORDER BY count DESC OFFSET ${Math.max(query.limit - 1, 0)} LIMIT 1
            ) AS c ON true
            CROSS JOIN LATERAL (
              SELECT value, count FROM facet_totals WHERE facet = f.facet AND count >= coalesce(c.cut, 0) ORDER BY count DESC
            ) AS t`,
          ),
    ]);
    // No row: finish() has not run since this migration, so count live rather than answer wrong.
    if (state[0]) return { total: state[0].masters, facets: facetsFrom(query.facets, rows, query.limit) };
  }
  const styleWords = Boolean(query.filters.style?.length) && text.tokens.length > 0 && (await styleWordsReady(sql, read, abort));
  const { genre, style, ...others } = query.filters;
  if (styleWords && style && !hasAnyFilter(others) && (await styleWordCodesReady(sql, read, abort))) {
    return facetsByCodes(sql, read, query, text, style, genre, stored, abort);
  }
  const where = sql`kind = 0 AND ${matchConditions(sql, text, query.filters, 'all', styleWords)}`;
  const counted = stored.map(
    (facet) => sql`
    SELECT ${facet}::text AS facet, v.value, count(*)::int AS count
    FROM hits h, LATERAL (SELECT DISTINCT unnest(${facetValuesOf(sql, facet, 'h')})) AS v(value)
    GROUP BY v.value`,
  );
  const rows = await read(
    abort,
    () => sql<Array<CountRow & { total: number }>>`
    WITH hits AS MATERIALIZED (
      SELECT id, genres, styles, formats, labels, country, year FROM search_documents WHERE ${where}
    ),
    counts AS (
      ${counted.length === 0 ? sql`SELECT NULL::text AS facet, NULL::text AS value, 0 AS count WHERE false` : counted.reduce((all, part) => sql`${all} UNION ALL ${part}`)}
    )
    SELECT NULL::text AS facet, NULL::text AS value, 0 AS count, (SELECT count(*)::int FROM hits) AS total
    UNION ALL
    SELECT facet, value, count, NULL FROM (${keepTopTies(sql, query.limit)}) AS kept`,
  );
  return facetsResultOf(query, rows);
}

/** The answer of both counts: the total row (facet null) and the kept counts. */
function facetsResultOf(query: FacetsQuery, rows: ReadonlyArray<CountRow & { total: number }>): FacetsResult {
  const total = rows.find((row) => row.facet === null)?.total ?? 0;
  return {
    total,
    facets: facetsFrom(
      query.facets,
      rows.filter((row) => row.facet !== null),
      query.limit,
    ),
  };
}

/**
 * q + a style (+ a genre) filter, the shape of a faceted search page: the same masters as the
 * live count, counted over their numbered facet values (migration 0016). The masters are read
 * from search_style_words as one range for the first token and a style, filled in index order,
 * with each master's codes beside it: a few consecutive pages where fetching each master's row
 * cost a random page (5–8 µs) per master. The other tokens keep only the ids their ranges also
 * hold (styleWordIds); the genre filter is the master's genre key codes; a master under two of
 * the styles counts once (DISTINCT ON id).
 *
 * Counting: each facet's codes are one range (facet-tables.ts), so codes are counted and cut
 * per facet (the limit-th count and every value tied with it: keepTopTies) before the few
 * kept are looked up. Same counts, same ties kept, same answer as the live count.
 */
async function facetsByCodes(
  sql: Sql,
  read: Reader,
  query: FacetsQuery,
  text: QueryText,
  style: readonly string[],
  genre: readonly string[] | undefined,
  stored: StoredFacet[],
  abort?: AbortProbe,
): Promise<FacetsResult> {
  const styles = lower(style);
  const [first, ...rest] = text.tokens as [string, ...string[]];
  const others = rest.length > 0 ? sql`AND id = ANY(${styleWordIds(sql, { ...text, tokens: rest }, styles)})` : sql``;
  const genreCondition = genre?.length
    ? sql`AND codes && ARRAY(SELECT code FROM facet_codes WHERE facet = 'genre_key' AND value = ANY(${lower(genre)}::text[]))`
    : sql``;
  const rows = await read(
    abort,
    () => sql<Array<CountRow & { total: number }>>`
    WITH hits AS MATERIALIZED (
      SELECT DISTINCT ON (id) codes FROM search_style_words
      WHERE ${styleWordRange(sql, first, styles)} ${others} ${genreCondition}
      ORDER BY id
    ),
    ranges AS MATERIALIZED (
      SELECT f.facet, (SELECT min(code) FROM facet_codes c WHERE c.facet = f.facet) AS lo, (SELECT max(code) FROM facet_codes c WHERE c.facet = f.facet) AS hi
      FROM unnest(${stored}::text[]) AS f(facet)
    ),
    counts AS (
      SELECT r.facet, n.code, n.count
      FROM (SELECT code, count(*)::int AS count FROM (SELECT unnest(codes) AS code FROM hits) AS u GROUP BY code) AS n
      JOIN ranges r ON n.code BETWEEN r.lo AND r.hi
    )
    SELECT NULL::text AS facet, NULL::text AS value, 0 AS count, (SELECT count(*)::int FROM hits) AS total
    UNION ALL
    SELECT k.facet, c.value, k.count, NULL FROM (${keepTopTies(sql, query.limit, 'code')}) AS k JOIN facet_codes c ON c.code = k.code`,
  );
  return facetsResultOf(query, rows);
}
