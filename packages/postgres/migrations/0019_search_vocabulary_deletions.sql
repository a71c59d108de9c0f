-- Typo tolerance's one-edit lookup (issue 29 item 1; packages/postgres/src/catalogue/typos.ts):
-- each vocabulary word of 4–9 characters (the words a query word of 5–8 characters, allowed one
-- edit, can be corrected to) under each of its one-deletion forms. A word w is one edit from a
-- query word q exactly when w is q, or a deletion of q is w (q has a letter too many), or q is a
-- deletion of w (q lacks one), or q and w share a deletion (a substitution, or a transposition:
-- "xaby" and "xbay" both give "xay"). So q's n + 1 forms (q and its deletions) probed here and
-- in search_vocabulary find every candidate, where equality probes of all its one-edit variants
-- took ~36 · (2n + 1) probes, 400–600 per word and ~1–2 ms of PostgreSQL per corrected query at
-- 1 M masters. The candidates found are a superset (two deletions can meet two edits apart);
-- core's correctionsAmong keeps those within one edit, as before.
-- Rebuilt whole by every finish() with search_vocabulary (writer/search-terms.ts); filled here
-- from the live vocabulary.
CREATE TABLE search_vocabulary_deletions (
  deletion text NOT NULL,
  word     text NOT NULL
);
INSERT INTO search_vocabulary_deletions (deletion, word)
SELECT DISTINCT overlay(v.word placing '' from i for 1), v.word
FROM search_vocabulary v CROSS JOIN LATERAL generate_series(1, length(v.word)) AS i
WHERE length(v.word) BETWEEN 4 AND 9;
-- Both columns in the key: the lookup is an index-only scan once VACUUM has set the visibility map.
CREATE INDEX search_vocabulary_deletions_deletion ON search_vocabulary_deletions (deletion, word);
