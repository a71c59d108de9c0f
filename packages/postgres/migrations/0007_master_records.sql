-- Master records as the API serves them: core's masterRecordOf over the master, its main
-- release and the slugs and names of the artists and labels they credit, rebuilt by the
-- writer's finish(). The master and batch routes read one row per master instead of joining
-- and assembling on every call (about six times the throughput on the database).
--
-- `json`, not `jsonb`: the record is only ever read whole, and json keeps its text (and key
-- order) as written, with no conversion on the way out.
--
-- A master or release the writer changes loses its row at once, so the route assembles it
-- live until the next finish(); artist and label names in a record are as of that finish(),
-- like slugs and search documents.
CREATE TABLE master_records (
  master_id integer PRIMARY KEY REFERENCES masters ON DELETE CASCADE,
  record    json NOT NULL
);
