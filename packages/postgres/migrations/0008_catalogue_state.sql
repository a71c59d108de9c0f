-- The catalogue's generation: the writer's finish() advances it, in one transaction with the
-- WAL position (LSN) it reached and a NOTIFY on `catalogue_finished`, so a process serving
-- reads knows, within milliseconds of an import, which replicas have replayed it (a read
-- replica is used for catalogue reads only once pg_last_wal_replay_lsn() is past
-- finished_lsn) and can drop what it cached of the previous generation.
--
-- One row. finished_lsn is text (pg_lsn's output form 'X/Y'), so PGlite and every host read
-- it the same way.
CREATE TABLE catalogue_state (
  id           boolean PRIMARY KEY DEFAULT true CHECK (id),
  generation   bigint NOT NULL DEFAULT 0,
  finished_at  timestamptz,
  finished_lsn text
);
INSERT INTO catalogue_state (id) VALUES (true);
