-- Agents for every credit (docs/decisions.md §5): an artist or label that a master, release,
-- alias, member/group, parent or sublabel names by Discogs id gets a row even when the dumps
-- hold none, so every cluster_id and slug a record hands out resolves. Such a row is a stub
-- (`stub = true`): finish() writes it from the credits (packages/postgres/src/writer/
-- agent-stubs.ts) and drops it once nothing credits it; the dump's own row replaces it.
ALTER TABLE artists ADD COLUMN stub boolean NOT NULL DEFAULT false;
ALTER TABLE labels ADD COLUMN stub boolean NOT NULL DEFAULT false;
