-- Extensions and the text helpers every later migration relies on.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent() is only STABLE (it reads a dictionary by search_path), so it cannot appear in an
-- index expression. Naming the dictionary explicitly makes the result fixed for an input,
-- which is what IMMUTABLE promises; indexes on catalogue_fold(name) rely on it.
CREATE OR REPLACE FUNCTION catalogue_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;

-- Lowercased and accent-stripped: the form name indexes (trigram, equality) are built on.
-- Schema-qualified: since PostgreSQL 17 index builds run with search_path = pg_catalog.
CREATE OR REPLACE FUNCTION catalogue_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.catalogue_unaccent($1)) $$;
