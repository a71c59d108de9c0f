-- Facet counts with q and a style filter (issue 14 item 3; packages/postgres/src/writer/
-- facet-totals.ts). Counting a query's masters read each one's row of search_documents (wide:
-- tsv, tokens, credits) and unnested six text arrays with a DISTINCT per master and facet; a
-- common word's page cost ~15 ms at a million masters. Here each master's facet values are
-- numbered once, deduplicated, in one narrow row, so counting is one pass over small integer
-- arrays. facet_codes numbers every value facet_totals holds (the same value expressions);
-- both are rebuilt from search_documents with facet_totals by finish(). Until then they are
-- empty and facets count as before. Like facet_totals they are rebuilt after finish() swaps
-- the new documents in, so for that step's seconds such a count reads the previous import's
-- values of the masters found.
CREATE TABLE facet_codes (
  code  integer PRIMARY KEY,
  facet text NOT NULL,
  value text NOT NULL,
  UNIQUE (facet, value)
);
CREATE TABLE master_facets (
  id         integer PRIMARY KEY,
  -- The genre filter, tested here (as search_documents.genre_keys).
  genre_keys text[] NOT NULL,
  codes      integer[] NOT NULL
);
UPDATE catalogue_state SET derived_stale = true WHERE EXISTS (SELECT 1 FROM masters);
