/**
 * The WHERE conditions and the score shared by search, facets and resolve, mirroring core's
 * catalogue/search.ts: a query token prefixes a document token (prefix tsquery over the GIN-
 * indexed tsv; every token, or in the "some" fallback any),
 * multi-valued facets match any value case-insensitively (lowercase keys stored beside the
 * values), facets AND together, years inclusive, and facet filters admit masters only.
 */
import type { AbortProbe, FacetFilters } from '@catalogue/core';
import { type MatchMode, searchTextOf } from '@catalogue/core/catalogue';
import type { Fragment, Sql } from 'postgres';
import type { Reader } from './reader.js';

export interface QueryText {
  tokens: string[];
  /** Query tokens joined by one space: compared with a document's name_key. */
  key: string;
  /** `'tok1':* & 'tok2':*`; tokens are [a-z0-9]+ (core's tokensOf), so quoting is safe. */
  tsquery: string;
  /** `'tok1':* | 'tok2':*`: the "some" fallback. */
  anyTsquery: string;
  /** Per token, its corrections ([] for none): only on a query searched with them (core's search.ts, "Typos"). */
  corrections?: ReadonlyArray<readonly string[]>;
}

/** A token and its corrections, each as a prefix (`'tok':*`, with a weight when given), or'ed. */
const variantsQuery = (variants: readonly string[], weight = '') => variants.map((variant) => `'${variant}':*${weight}`).join(' | ');

/**
 * The query searched with its corrections (by token position): each token matches as itself or
 * any of its corrections, `('tok':* | 'fix':*) & …`; corrections are vocabulary words, [a-z0-9]+.
 */
export function correctedQueryText(text: QueryText, corrections: ReadonlyMap<number, readonly string[]>): QueryText {
  const perToken = text.tokens.map((_, position) => corrections.get(position) ?? []);
  const groups = text.tokens.map((token, position) => variantsQuery([token, ...(perToken[position] as string[])]));
  return {
    ...text,
    corrections: perToken,
    tsquery: groups.map((group) => `(${group})`).join(' & '),
    anyTsquery: groups.join(' | '),
  };
}

export function queryTextOf(q: string | null): QueryText {
  const { tokens, key } = searchTextOf(q);
  const prefixes = tokens.map((token) => `'${token}':*`);
  return { tokens, key, tsquery: prefixes.join(' & '), anyTsquery: prefixes.join(' | ') };
}

export function hasAnyFilter(filters: FacetFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && (!Array.isArray(value) || value.length > 0));
}

/** Filter values as the stored keys hold them. */
export const lower = (values: readonly string[]): string[] => values.map((value) => value.toLowerCase());

/**
 * Conditions as one fragment starting with `TRUE`, so callers can always append it after WHERE.
 * With `styleWords` (search_style_words is built, see styleWordsReady), every token in the
 * "all" mode and a style filter: the masters are those the word + style index lists for every
 * token (the same set as the tsv and style conditions it replaces), fetched by primary key.
 */
export function matchConditions(sql: Sql, text: QueryText, filters: FacetFilters, mode: MatchMode = 'all', styleWords = false): Fragment {
  const parts: Fragment[] = [];
  const styles = filters.style?.length ? lower(filters.style) : null;
  const byStyleWords = styleWords && styles !== null && mode === 'all' && text.tokens.length > 0;
  if (byStyleWords) {
    parts.push(sql`AND kind = 0 AND id = ANY(${styleWordIds(sql, text, styles)})`);
  } else if (text.tokens.length > 0) parts.push(sql`AND tsv @@ ${mode === 'all' ? text.tsquery : text.anyTsquery}::tsquery`);
  if (hasAnyFilter(filters)) {
    parts.push(sql`AND kind = 0`);
    if (filters.genre?.length) parts.push(sql`AND genre_keys && ${lower(filters.genre)}::text[]`);
    if (styles && !byStyleWords) parts.push(sql`AND style_keys && ${styles}::text[]`);
    if (filters.format?.length) parts.push(sql`AND format_keys && ${lower(filters.format)}::text[]`);
    if (filters.country?.length) parts.push(sql`AND country_key = ANY(${lower(filters.country)}::text[])`);
    if (filters.label?.length) parts.push(sql`AND label_keys && ${lower(filters.label)}::text[]`);
    if (filters.year_from !== undefined) parts.push(sql`AND year >= ${filters.year_from}`);
    if (filters.year_to !== undefined) parts.push(sql`AND year <= ${filters.year_to}`);
  }
  return parts.reduce((all, part) => sql`${all} ${part}`, sql`TRUE`);
}

/**
 * The ids of the masters with one of `styles` and, for every token, a word it prefixes, from
 * search_style_words (its tokens are non-empty). ARRAY(…) is computed once, first: the planner
 * then reads the few masters by primary key.
 */
export function styleWordIds(sql: Sql, text: QueryText, styles: readonly string[]): Fragment {
  // A corrected token: the ids of any of its variants' ranges (core's search.ts, "Typos").
  const ranges = text.tokens.map((token, i) =>
    [token, ...(text.corrections?.[i] ?? [])]
      .map((variant) => sql`SELECT id FROM search_style_words WHERE ${styleWordRange(sql, variant, styles)}`)
      .reduce((all, range) => sql`${all} UNION ${range}`),
  );
  return sql`ARRAY(${ranges.map((range) => sql`(${range})`).reduce((all, range) => sql`${all} INTERSECT ${range}`)})`;
}

/** The search_style_words entries of the words `token` prefixes under one of `styles`: one index range per style. */
export function styleWordRange(sql: Sql, token: string, styles: readonly string[]): Fragment {
  return sql`style_key = ANY(${styles as string[]}::text[]) AND token >= ${token} AND token < ${`${token}~`}`;
}

const sum = (sql: Sql, parts: Fragment[]) => parts.reduce((all, part) => sql`${all} + ${part}`);

/**
 * The score of a document for the query, as core's scoreOf: integer points + score0 (the
 * stored round6 popularity), so both stores compute the same double. Per matched row it tests
 * the row's own tsv (weight A: title and artists) and phrase_text; the GIN index still finds
 * the rows. In the "all" mode every token matched, so `matched` is the token count.
 */
export function scoreExpression(sql: Sql, text: QueryText, mode: MatchMode = 'all'): Fragment {
  if (text.tokens.length === 0) return sql`score0`;
  if (text.corrections) return typoScoreExpression(sql, text, text.corrections, mode);
  const test = (query: (token: string) => string) =>
    sum(
      sql,
      text.tokens.map((token) => sql`(tsv @@ ${query(token)}::tsquery)::int`),
    );
  const matched = mode === 'all' ? sql`${text.tokens.length}::int` : test((token) => `'${token}':*`);
  const primary = test((token) => `'${token}':*A`);
  // tokens holds every word of the document: one array test for "every query token is a whole word"
  const whole = sql`(tokens @> ${text.tokens}::text[])::int`;
  const phrase =
    text.tokens.length >= 2
      ? sql`CASE WHEN name_key = ${text.key} THEN 2 WHEN phrase_text LIKE ${`% ${text.key}%`} THEN 1 ELSE 0 END`
      : sql`CASE WHEN name_key = ${text.key} THEN 2 ELSE 0 END`;
  return sql`((((${matched}) * 128 + (${primary})) * 4 + ${phrase}) * 2 + ${whole})::float8 + score0`;
}

/**
 * scoreExpression for a query searched with its corrections, as core's typoPointsOf: matched
 * (some variant of the token), exact (the token as typed), then, from each token's chosen
 * variant (the first of its variants the document holds), primary (at weight A), phrase over
 * the key of the chosen variants, whole (the chosen variant of every token a whole word), as
 * `(((matched·128 + exact)·128 + primary)·4 + phrase)·2 + whole`.
 */
function typoScoreExpression(sql: Sql, text: QueryText, corrections: ReadonlyArray<readonly string[]>, mode: MatchMode): Fragment {
  const variants = text.tokens.map((token, i) => [token, ...(corrections[i] ?? [])]);
  const count = (query: (group: string[]) => string) =>
    sum(
      sql,
      variants.map((group) => sql`(tsv @@ ${query(group)}::tsquery)::int`),
    );
  // Per token, `then(variant)` of its chosen variant, `otherwise` when the document holds none ("some" mode).
  const byChosen = (group: string[], then: (variant: string) => Fragment, otherwise: Fragment) => {
    const cases = group.map((variant) => sql`WHEN tsv @@ ${`'${variant}':*`}::tsquery THEN ${then(variant)}`);
    return sql`CASE ${cases.reduce((all, part) => sql`${all} ${part}`)} ELSE ${otherwise} END`;
  };
  const matched = mode === 'all' ? sql`${text.tokens.length}::int` : count((group) => variantsQuery(group));
  const exact = count((group) => variantsQuery(group.slice(0, 1)));
  const primary = sum(
    sql,
    variants.map((group) => byChosen(group, (variant) => sql`(tsv @@ ${`'${variant}':*A`}::tsquery)::int`, sql`0`)),
  );
  const whole = sql`(${variants
    .map((group) => byChosen(group, (variant) => sql`${variant}::text = ANY(tokens)`, sql`false`))
    .reduce((all, part) => sql`${all} AND ${part}`)})::int`;
  // The chosen variant of each token (the token itself when none: "some" mode).
  const chosen = variants.map((group) => byChosen(group, (variant) => sql`${variant}::text`, sql`${group[0] as string}::text`));
  const key = chosen.reduce((all, part) => sql`${all} || ' ' || ${part}`);
  const phrase =
    text.tokens.length >= 2
      ? sql`CASE WHEN name_key = (${key}) THEN 2 WHEN phrase_text LIKE '% ' || (${key}) || '%' THEN 1 ELSE 0 END`
      : sql`CASE WHEN name_key = (${key}) THEN 2 ELSE 0 END`;
  return sql`(((((${matched}) * 128 + (${exact})) * 128 + (${primary})) * 4 + ${phrase}) * 2 + ${whole})::float8 + score0`;
}

/**
 * Whether search_style_words (migration 0014) holds the catalogue's masters: filled, or no
 * master has a style. Until the first finish() after the migration it is empty, and matching
 * through it would find nothing, so searches match as before. Once filled it stays so (finish()
 * swaps in a full rebuild), so a true answer is kept per pool.
 */
const styleWordsBuilt = new WeakSet<Sql>();
const styleWordCodesBuilt = new WeakSet<Sql>();

/**
 * Whether search_style_words carries each master's facet codes (migration 0016): NULL in every
 * row until the first finish() after the migration, which rebuilds the table whole (so one row
 * answers for all). An empty table (no master has a style) is not "ready": the live count
 * answers that too, at no cost. Once true it stays so, so a true answer is kept per pool.
 */
export async function styleWordCodesReady(sql: Sql, read: Reader, abort?: AbortProbe): Promise<boolean> {
  if (styleWordCodesBuilt.has(sql)) return true;
  const [row] = await read(abort, () => sql<Array<{ ready: boolean }>>`SELECT codes IS NOT NULL AS ready FROM search_style_words LIMIT 1`);
  if (row?.ready) styleWordCodesBuilt.add(sql);
  return row?.ready ?? false;
}

export async function styleWordsReady(sql: Sql, read: Reader, abort?: AbortProbe): Promise<boolean> {
  if (styleWordsBuilt.has(sql)) return true;
  const [row] = await read(
    abort,
    () => sql<Array<{ ready: boolean }>>`
    SELECT EXISTS (SELECT 1 FROM search_style_words)
        OR NOT EXISTS (SELECT 1 FROM search_documents WHERE kind = 0 AND style_keys <> '{}') AS ready`,
  );
  if (row?.ready) styleWordsBuilt.add(sql);
  return row?.ready ?? false;
}
