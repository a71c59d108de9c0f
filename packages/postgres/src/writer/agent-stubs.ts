/**
 * Agents for every credit (docs/decisions.md §5, migration 0010): the first step of finish()
 * gives every artist and label that a master, release, alias, member/group, parent or sublabel
 * names by Discogs id a row, in a few set-based statements. It computes what core's
 * agentStubsOf computes for the memory catalogue (catalogue/agent-stubs.ts): the name the
 * credits use most, ties to the smallest by code point (`COLLATE "C"` compares UTF-8 bytes,
 * which is code point order). A stub nothing credits any more is dropped, a row the dump wrote
 * (`stub = false`) is never touched, and an unchanged stub is not rewritten, so a re-import
 * changes nothing and the order of imports does not matter.
 */
import { SOURCE_ID_RANGE } from '@catalogue/core/catalogue';
import type { TransactionSql } from 'postgres';
import { type Db, within } from './db.js';

/** Credits as (jsonb ref) rows: `{discogs_id, name}` objects naming an agent of the kind. */
const CREDITS = {
  artist: `
    SELECT c FROM masters, jsonb_array_elements(doc->'artists') AS c
    UNION ALL SELECT c FROM releases, jsonb_array_elements(doc->'artists') AS c
    UNION ALL SELECT c FROM releases, jsonb_array_elements(doc->'extra_artists') AS c
    UNION ALL SELECT c FROM artists, jsonb_array_elements(doc->'aliases') AS c
    UNION ALL SELECT c FROM artists, jsonb_array_elements(doc->'members') AS c
    UNION ALL SELECT c FROM artists, jsonb_array_elements(doc->'groups') AS c`,
  label: `
    SELECT c FROM releases, jsonb_array_elements(doc->'labels') AS c
    UNION ALL SELECT doc->'parent' FROM labels WHERE jsonb_typeof(doc->'parent') = 'object'
    UNION ALL SELECT c FROM labels, jsonb_array_elements(doc->'sublabels') AS c`,
} as const;

/** The stub's document: the dump row's shape (ArtistRow / LabelRow) with only the name known. */
const STUB_DOC = {
  artist: `jsonb_build_object('discogs_id', w.id, 'name', w.name, 'real_name', null, 'profile', null, 'data_quality', null,
             'name_variations', '[]'::jsonb, 'aliases', '[]'::jsonb, 'members', '[]'::jsonb, 'groups', '[]'::jsonb,
             'urls', '[]'::jsonb, 'mbid', null, 'spotify_id', null)`,
  label: `jsonb_build_object('discogs_id', w.id, 'name', w.name, 'profile', null, 'contact_info', null, 'data_quality', null,
            'urls', '[]'::jsonb, 'parent', null, 'sublabels', '[]'::jsonb)`,
} as const;

async function refreshStubs(tx: TransactionSql, kind: 'artist' | 'label'): Promise<void> {
  const table = kind === 'artist' ? 'artists' : 'labels';
  const offset = kind === 'artist' ? 1 : 2;
  await tx.unsafe(`
    CREATE TEMPORARY TABLE wanted_stubs ON COMMIT DROP AS
    WITH credits AS (${CREDITS[kind]}),
    named AS (
      SELECT (c->>'discogs_id')::bigint AS id, coalesce(c->>'name', '') AS name
      FROM credits WHERE jsonb_typeof(c->'discogs_id') = 'number'
    ),
    tally AS (
      SELECT id::int AS id, name, count(*) AS n FROM named
      WHERE id BETWEEN 1 AND ${SOURCE_ID_RANGE.held} GROUP BY id, name
    )
    SELECT DISTINCT ON (t.id) t.id, t.name FROM tally t
    WHERE NOT EXISTS (SELECT 1 FROM ${table} x WHERE x.discogs_id = t.id AND NOT x.stub)
    ORDER BY t.id, t.n DESC, t.name COLLATE "C"`);
  await tx.unsafe(`DELETE FROM ${table} x WHERE x.stub AND NOT EXISTS (SELECT 1 FROM wanted_stubs w WHERE w.id = x.discogs_id)`);
  await tx.unsafe(`
    INSERT INTO ${table} (discogs_id, cluster_id, name, doc, stub)
    SELECT w.id, w.id * 4 + ${offset}, w.name, ${STUB_DOC[kind]}, true FROM wanted_stubs w
    ON CONFLICT (discogs_id) DO UPDATE SET name = EXCLUDED.name, doc = EXCLUDED.doc
      WHERE ${table}.stub AND ${table}.doc IS DISTINCT FROM EXCLUDED.doc`);
  await tx.unsafe('DROP TABLE wanted_stubs');
}

export async function refreshAgentStubs(db: Db): Promise<void> {
  await within(db, async (tx) => {
    await refreshStubs(tx, 'artist');
    await refreshStubs(tx, 'label');
  });
}
