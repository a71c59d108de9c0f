-- Field-boosted search (packages/core/src/catalogue/search.ts, "Scoring"). The score is now
-- computed per query from the document: `tsv` holds the primary tokens (title and artist
-- names, an agent's name) at weight A and the secondary ones (genres, styles) at weight D, so
-- `tok:*A` asks "in title or artist" and `tok:*` "anywhere" of the same GIN-indexed column;
-- `phrase_text` is where a phrase is looked for; popularity stays in score0 and the fixed
-- per-base scores are gone. A master's hit also carries its credited artists (`credits`).
-- Written by the writer's finish(): run `npx catalogue refresh` once after this migration.
ALTER TABLE search_documents
  ADD COLUMN phrase_text text NOT NULL DEFAULT '',
  ADD COLUMN credits jsonb,
  DROP COLUMN score1,
  DROP COLUMN score2,
  DROP COLUMN score3;
-- Search documents written before this migration lack the fields above (and no credit stubs
-- exist yet, 0010_agent_stubs): a catalogue that holds masters has stale derived data until
-- the next finish() (migration 0009's flag), which `catalogue refresh` or the embedded
-- default's start runs.
UPDATE catalogue_state SET derived_stale = true WHERE EXISTS (SELECT 1 FROM masters);
