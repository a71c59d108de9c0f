-- Single-word search, ranked ahead of time (issue 14 item 3; packages/postgres/src/writer/
-- search-terms.ts). A common word matches hundreds of thousands of documents, and scoring
-- every match per query cost hundreds of ms at a million masters. For a one-token query q,
-- every document whose score reaches 1033 (q is a whole word of it and prefixes a title or
-- artist word) has a row here under token q holding that exact score; every other match
-- scores below 1033. So the first `limit` rows in (score DESC, kind, id) order that pass the
-- filters are the page, whenever there are that many; otherwise search counts as before.
-- Rebuilt from search_documents by finish(); an empty or missing set only makes search slower.
CREATE TABLE search_terms (
  token      text NOT NULL,
  score      double precision NOT NULL,
  kind       smallint NOT NULL,
  id         integer NOT NULL,
  -- The two facet filters most searches carry, so they are tested in the index alone.
  genre_keys text[] NOT NULL DEFAULT '{}',
  style_keys text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX search_terms_top ON search_terms (token, score DESC, kind, id) INCLUDE (genre_keys, style_keys);
-- Built by the next finish() (migration 0009's flag), which `catalogue refresh` or the embedded
-- default's start runs; until then search answers from search_documents alone.
UPDATE catalogue_state SET derived_stale = true WHERE EXISTS (SELECT 1 FROM masters);
