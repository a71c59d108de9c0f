-- Facet counts with q and a style filter read each master's numbered facet values beside its
-- word + style index entries (issue 14 item 3; packages/postgres/src/writer/facet-tables.ts).
-- Through master_facets (0015) a common word + style (~2,000 masters at a million) cost one
-- primary-key probe and heap page per master, 5–8 µs each: 10–15 ms of a 17 ms count. Here
-- the rows of one word + style range lie together (the table is filled in index order), so
-- the masters and their codes are a few consecutive pages. master_facets is no longer read.
--
-- facet_codes also numbers each master's genre keys (facet 'genre_key'), so the genre filter
-- is tested on the codes; and the codes of one facet are one range (numbered in facet order),
-- which (facet, code) finds, so counts are cut per facet before any value is looked up.
--
-- Until the next finish() fills codes the column is NULL and facets count as before; that
-- finish() also builds facet_totals and facet_codes from the new documents before the swap and
-- swaps them in with the documents, so a count never mixes two imports.
ALTER TABLE search_style_words ADD COLUMN codes integer[];
CREATE INDEX facet_codes_facet_code ON facet_codes (facet, code);
DROP TABLE master_facets;
UPDATE catalogue_state SET derived_stale = true WHERE EXISTS (SELECT 1 FROM masters);
