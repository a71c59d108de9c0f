-- Word + style, for queries that carry a style filter (issue 14 item 3; packages/postgres/src/
-- writer/search-terms.ts). A common word's prefix match (`live:*` in ~90,000 documents at a
-- million masters) cost 25–35 ms in the tsv GIN index before the style filter cut it to a few
-- hundred; this index answers "masters with style s and a word starting with t" as one range
-- (style_key = s AND t <= token < t || '~'), so the work follows the size of the answer.
-- One row per master, style key and word; rebuilt from search_documents by finish().
CREATE TABLE search_style_words (
  style_key text NOT NULL,
  -- Byte order, so a prefix is one range: tokens are [a-z0-9]+ (core's tokensOf), all below '~'.
  token     text COLLATE "C" NOT NULL,
  id        integer NOT NULL
);
CREATE INDEX search_style_words_range ON search_style_words (style_key, token, id);
UPDATE catalogue_state SET derived_stale = true WHERE EXISTS (SELECT 1 FROM masters);
