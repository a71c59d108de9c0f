-- Typo tolerance (issue 29; packages/core/src/catalogue/typos.ts): the catalogue's distinct
-- words of 4+ characters (every word of the search documents, `tokens`), each with the number
-- of documents holding it. A query word with no complete hit is corrected to the words of this
-- table within its allowed edits, found by trigram similarity (the GIN index below, pg_trgm's
-- `%`) and by equality (one transposition or deletion away); packages/postgres/src/catalogue/
-- typos.ts. Rebuilt whole by every finish() with the search terms, from the fresh documents
-- (writer/search-terms.ts). Filled here from the live documents, so an upgraded database corrects
-- at once without a full refresh.
CREATE TABLE search_vocabulary (
  word      text NOT NULL,
  documents integer NOT NULL
);
INSERT INTO search_vocabulary (word, documents)
SELECT w, count(*)::int FROM search_documents d CROSS JOIN LATERAL unnest(d.tokens) AS w
WHERE length(w) BETWEEN 4 AND 42
GROUP BY w;
CREATE UNIQUE INDEX search_vocabulary_word ON search_vocabulary (word);
CREATE INDEX search_vocabulary_trigrams ON search_vocabulary USING gin (word gin_trgm_ops);
