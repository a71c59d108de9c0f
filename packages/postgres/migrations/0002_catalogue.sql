-- The catalogue. Each source table keeps the row exactly as written (`doc`, the CatalogueData
-- row) so record assembly reads what the importer wrote, plus the columns queries filter,
-- join and sort on. Derived columns (slugs, master facets, link tables from main releases,
-- search documents, signals) are recomputed by the writer's finish().

CREATE TABLE artists (
  discogs_id   integer PRIMARY KEY,
  cluster_id   integer NOT NULL UNIQUE,
  name         text NOT NULL,
  mbid         text,
  spotify_id   text,
  slug         text,
  master_count integer NOT NULL DEFAULT 0,
  doc          jsonb NOT NULL
);
-- Not unique: a derived `${base}-${id}` may equal another row's base; the lowest id answers.
CREATE INDEX artists_slug ON artists (slug, discogs_id);
CREATE INDEX artists_mbid ON artists (lower(mbid)) WHERE mbid IS NOT NULL;
CREATE INDEX artists_spotify ON artists (spotify_id) WHERE spotify_id IS NOT NULL;
CREATE INDEX artists_name_fold ON artists (catalogue_fold(name));
CREATE INDEX artists_name_trgm ON artists USING gin (catalogue_fold(name) gin_trgm_ops);

CREATE TABLE labels (
  discogs_id   integer PRIMARY KEY,
  cluster_id   integer NOT NULL UNIQUE,
  name         text NOT NULL,
  parent_id    integer,
  slug         text,
  master_count integer NOT NULL DEFAULT 0,
  doc          jsonb NOT NULL
);
CREATE INDEX labels_slug ON labels (slug, discogs_id);
CREATE INDEX labels_parent ON labels (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX labels_name_fold ON labels (catalogue_fold(name));
CREATE INDEX labels_name_trgm ON labels USING gin (catalogue_fold(name) gin_trgm_ops);

CREATE TABLE festivals (
  festival_id integer PRIMARY KEY,
  cluster_id  integer NOT NULL UNIQUE,
  name        text NOT NULL,
  slug        text,
  doc         jsonb NOT NULL
);
CREATE INDEX festivals_slug ON festivals (slug, festival_id);
CREATE INDEX festivals_name_fold ON festivals (catalogue_fold(name));
CREATE INDEX festivals_name_trgm ON festivals USING gin (catalogue_fold(name) gin_trgm_ops);

-- One row per artist per edition: artist → festival appearances without reading every festival.
CREATE TABLE festival_lineups (
  festival_id integer NOT NULL REFERENCES festivals ON DELETE CASCADE,
  year        integer NOT NULL,
  artist_id   integer NOT NULL,
  billing     text NOT NULL,
  starts_on   date NOT NULL,
  PRIMARY KEY (festival_id, year, artist_id)
);
CREATE INDEX festival_lineups_artist ON festival_lineups (artist_id);

CREATE TABLE masters (
  master_id       integer PRIMARY KEY,
  title           text NOT NULL,
  year            integer,
  main_release_id integer,
  genres          text[] NOT NULL DEFAULT '{}',
  styles          text[] NOT NULL DEFAULT '{}',
  doc             jsonb NOT NULL
);
CREATE INDEX masters_main_release ON masters (main_release_id);

-- Main artist credits (master.artists): artist dossier → masters, and the reverse.
CREATE TABLE master_artists (
  artist_id integer NOT NULL,
  master_id integer NOT NULL REFERENCES masters ON DELETE CASCADE,
  PRIMARY KEY (artist_id, master_id)
);
CREATE INDEX master_artists_master ON master_artists (master_id);

-- Labels of a master's main release: label dossier → masters (finish()).
CREATE TABLE master_labels (
  label_id  integer NOT NULL,
  master_id integer NOT NULL REFERENCES masters ON DELETE CASCADE,
  PRIMARY KEY (label_id, master_id)
);
CREATE INDEX master_labels_master ON master_labels (master_id);

CREATE TABLE releases (
  release_id      integer PRIMARY KEY,
  master_id       integer,
  is_main_release boolean NOT NULL,
  released        text,
  doc             jsonb NOT NULL
);
CREATE INDEX releases_master ON releases (master_id, released, release_id);

-- Extra-artist credits on releases: an artist's appearances.
CREATE TABLE release_credits (
  artist_id  integer NOT NULL,
  release_id integer NOT NULL REFERENCES releases ON DELETE CASCADE,
  PRIMARY KEY (artist_id, release_id)
);
CREATE INDEX release_credits_release ON release_credits (release_id);

CREATE TABLE bandcamp_artists (
  artist_id integer PRIMARY KEY,
  url       text NOT NULL,
  host      text,
  doc       jsonb NOT NULL
);
CREATE INDEX bandcamp_artists_host ON bandcamp_artists (host);

CREATE TABLE bandcamp_observations (
  artist_id  integer NOT NULL REFERENCES bandcamp_artists ON DELETE CASCADE,
  observed_on date NOT NULL,
  followers  integer NOT NULL,
  supporters integer NOT NULL,
  PRIMARY KEY (artist_id, observed_on)
);

CREATE TABLE bandcamp_releases (
  artist_id integer NOT NULL REFERENCES bandcamp_artists ON DELETE CASCADE,
  position  integer NOT NULL,
  url       text NOT NULL,
  tags      text[] NOT NULL DEFAULT '{}',
  PRIMARY KEY (artist_id, position)
);
CREATE INDEX bandcamp_releases_url ON bandcamp_releases (url);
CREATE INDEX bandcamp_releases_tags ON bandcamp_releases USING gin (tags);

-- Precomputed signals (finish()): the formulas are global (genre medians, rankings), so they
-- are computed once per load with core's pure functions and served from these tables.
CREATE TABLE signal_state (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  as_of     date,
  computed_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE artist_signals (
  cluster_id        integer PRIMARY KEY,
  main_genre        text,
  first_breakout_on date
);

CREATE TABLE signal_breakouts (
  window_days integer NOT NULL,
  position    integer NOT NULL,
  cluster_id  integer NOT NULL,
  -- genre.toLowerCase() computed in JS, so the filter folds case exactly as core does.
  genre_key   text,
  item        jsonb NOT NULL,
  PRIMARY KEY (window_days, position)
);
CREATE INDEX signal_breakouts_genre ON signal_breakouts (window_days, genre_key, position);

CREATE TABLE signal_tastemakers (
  position   integer PRIMARY KEY,
  kind       text NOT NULL,
  cluster_id integer NOT NULL,
  standing   jsonb NOT NULL
);
CREATE INDEX signal_tastemakers_kind ON signal_tastemakers (kind, position);

CREATE TABLE signal_ones_to_watch (
  position   integer PRIMARY KEY,
  cluster_id integer NOT NULL,
  genre_key  text,
  item       jsonb NOT NULL
);
CREATE INDEX signal_ones_to_watch_genre ON signal_ones_to_watch (genre_key, position);
