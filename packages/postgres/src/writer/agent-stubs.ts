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

/**
 * Credits as (id, name) rows naming an agent of the kind. Each list is read with
 * jsonb_to_recordset, one pass per element straight into typed columns: with
 * jsonb_array_elements and `->>` on each element the artists' statement took 15.4 s at 4 M
 * records, 8.6 s this way (issue 29). A credit's discogs_id is a number or null (core's
 * mappers); a row without one names no agent.
 */
const each = (table: string, list: string) =>
  `SELECT c.discogs_id AS id, c.name FROM ${table}, jsonb_to_recordset(doc->'${list}') AS c(discogs_id bigint, name text)`;

const CREDITS = {
  artist: [
    each('masters', 'artists'),
    each('releases', 'artists'),
    each('releases', 'extra_artists'),
    each('artists', 'aliases'),
    each('artists', 'members'),
    each('artists', 'groups'),
  ].join(' UNION ALL '),
  label: [
    each('releases', 'labels'),
    `SELECT (doc->'parent'->>'discogs_id')::bigint, doc->'parent'->>'name' FROM labels WHERE jsonb_typeof(doc->'parent'->'discogs_id') = 'number'`,
    each('labels', 'sublabels'),
  ].join(' UNION ALL '),
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
    WITH named AS (${CREDITS[kind]}),
    tally AS (
      SELECT id::int AS id, coalesce(name, '') AS name, count(*) AS n FROM named
      WHERE id BETWEEN 1 AND ${SOURCE_ID_RANGE.held} GROUP BY 1, 2
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
