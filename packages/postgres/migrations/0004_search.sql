-- Search documents: one per master, artist, label and festival, rebuilt by the writer's
-- finish() with core's tokenizer (catalogue/text.ts), so both catalogue implementations match
-- the same tokens. kind orders hits of equal score: 0 master, 1 artist, 2 label, 3 festival.
CREATE TABLE search_documents (
  kind        smallint NOT NULL CHECK (kind BETWEEN 0 AND 3),
  id          integer NOT NULL,
  -- The hit as served.
  slug        text,
  name        text NOT NULL,
  year        integer,
  artists     text[] NOT NULL DEFAULT '{}',
  genres      text[] NOT NULL DEFAULT '{}',
  styles      text[] NOT NULL DEFAULT '{}',
  -- Matching: every query token must prefix one of `tokens` (tsv, prefix tsquery); the base
  -- score is 3 for name_key = query key, 2 when tokens contain every query token, else 1.
  name_key    text NOT NULL,
  tokens      text[] NOT NULL,
  tsv         tsvector NOT NULL,
  -- round6(base + popularity) for base 0..3, computed in JS so SQL orders by the exact
  -- doubles the memory catalogue serves.
  score0      double precision NOT NULL,
  score1      double precision NOT NULL,
  score2      double precision NOT NULL,
  score3      double precision NOT NULL,
  -- Facet values of masters (original spelling, as counted) and their lowercase filter keys.
  formats     text[] NOT NULL DEFAULT '{}',
  country     text,
  labels      text[] NOT NULL DEFAULT '{}',
  genre_keys  text[] NOT NULL DEFAULT '{}',
  style_keys  text[] NOT NULL DEFAULT '{}',
  format_keys text[] NOT NULL DEFAULT '{}',
  country_key text,
  label_keys  text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (kind, id)
);
CREATE INDEX search_documents_tsv ON search_documents USING gin (tsv);
CREATE INDEX search_documents_browse ON search_documents (score0 DESC, kind, id);
CREATE INDEX search_documents_name_key ON search_documents (name_key);
CREATE INDEX search_documents_genre_keys ON search_documents USING gin (genre_keys) WHERE kind = 0;
CREATE INDEX search_documents_style_keys ON search_documents USING gin (style_keys) WHERE kind = 0;
CREATE INDEX search_documents_format_keys ON search_documents USING gin (format_keys) WHERE kind = 0;
CREATE INDEX search_documents_label_keys ON search_documents USING gin (label_keys) WHERE kind = 0;
CREATE INDEX search_documents_year ON search_documents (year) WHERE kind = 0;
CREATE INDEX search_documents_country ON search_documents (country_key) WHERE kind = 0;
CREATE INDEX search_documents_name_trgm ON search_documents USING gin (name_key gin_trgm_ops) WHERE kind > 0;
