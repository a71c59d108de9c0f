/**
 * Slugs are global per kind (a collision is settled by the lowest source id: core's
 * assignSlugs). Each row's base is core's slugBase, stored in slug_base where the row is
 * written (migration 0009); rows written without one get it here, a page at a time. Then one
 * set-based statement gives each row its slug — the base for the lowest id holding it,
 * `${base}-${id}` for the others, exactly as assignSlugs does — and rewrites only rows whose
 * slug changes, so memory stays flat whatever the catalogue's size (issue 13).
 */
import type { AgentKind } from '@catalogue/core';
import { slugBase } from '@catalogue/core/catalogue';
import type { Db } from './db.js';

const TABLES = {
  artist: { table: 'artists', id: 'discogs_id' },
  label: { table: 'labels', id: 'discogs_id' },
  festival: { table: 'festivals', id: 'festival_id' },
} as const;

const PAGE = 5_000;

export async function fillSlugBases(sql: Db, kind: AgentKind): Promise<void> {
  const { table, id } = TABLES[kind];
  for (;;) {
    const rows = await sql<Array<{ id: number; name: string }>>`
      SELECT ${sql(id)} AS id, name FROM ${sql(table)} WHERE slug_base IS NULL ORDER BY ${sql(id)} LIMIT ${PAGE}`;
    if (rows.length === 0) return;
    await sql`
      UPDATE ${sql(table)} AS t SET slug_base = u.base
      FROM unnest(${rows.map((row) => row.id)}::int[], ${rows.map((row) => slugBase(kind, row.id, row.name))}::text[]) AS u(id, base)
      WHERE t.${sql(id)} = u.id`;
  }
}

export async function recomputeSlugs(sql: Db, kind: AgentKind): Promise<void> {
  const { table, id } = TABLES[kind];
  await fillSlugBases(sql, kind);
  await sql`
    UPDATE ${sql(table)} AS t SET slug = s.slug
    FROM (
      SELECT ${sql(id)} AS id,
             CASE WHEN ${sql(id)} = min(${sql(id)}) OVER (PARTITION BY slug_base) THEN slug_base ELSE slug_base || '-' || ${sql(id)} END AS slug
      FROM ${sql(table)}
    ) AS s
    WHERE t.${sql(id)} = s.id AND t.slug IS DISTINCT FROM s.slug`;
}
