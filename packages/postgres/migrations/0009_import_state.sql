-- Monthly re-imports that touch only what changed, and imports that never leave derived data
-- half-built silently (issue 13).
--
-- content_hash: a hash of the record as the dump wrote it (the bytes the importer reads, with
-- an importer format version), set by the bulk import; a re-import skips a record whose hash
-- is unchanged without parsing it. NULL (rows written row by row) means "unknown": the next
-- bulk import rewrites the row if its document differs.
--
-- slug_base: core's slugBase(kind, id, name), computed in JS where the row is written, so
-- finish() assigns slugs in one set-based statement (the lowest id owns its base) instead of
-- reading every name into the process. NULL means "not computed yet": finish() fills it.
ALTER TABLE artists ADD COLUMN slug_base text, ADD COLUMN content_hash uuid;
ALTER TABLE labels ADD COLUMN slug_base text, ADD COLUMN content_hash uuid;
ALTER TABLE festivals ADD COLUMN slug_base text;
ALTER TABLE masters ADD COLUMN content_hash uuid;
ALTER TABLE releases ADD COLUMN content_hash uuid;

-- derived_stale: source rows changed since derived data (slugs, links, search documents,
-- master records, facet totals, signals) was last computed. Set in the transaction that
-- changes a source table, cleared only by the last step of a complete finish() together with
-- the generation's advance; while it is true, `catalogue refresh` (or re-running the import)
-- completes the catalogue, and every import and start says so.
ALTER TABLE catalogue_state ADD COLUMN derived_stale boolean NOT NULL DEFAULT false;
