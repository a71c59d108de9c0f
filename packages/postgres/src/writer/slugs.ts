/**
 * Slugs are global per kind (a collision is settled by the lowest source id), so they are
 * assigned after a run over every row of the kind with core's assignSlugs, the same function
 * the memory catalogue uses.
 */
import type { AgentKind } from '@catalogue/core';
import { assignSlugs } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';

const TABLES = {
  artist: { table: 'artists', id: 'discogs_id' },
  label: { table: 'labels', id: 'discogs_id' },
  festival: { table: 'festivals', id: 'festival_id' },
} as const;

export async function recomputeSlugs(sql: Sql, kind: AgentKind): Promise<void> {
  const { table, id } = TABLES[kind];
  await sql.begin(async (tx) => {
    const rows = await tx<Array<{ id: number; name: string; slug: string | null }>>`
      SELECT ${tx(id)} AS id, name, slug FROM ${tx(table)}`;
    const slugs = assignSlugs(
      kind,
      rows.map((row) => ({ sourceId: row.id, name: row.name })),
    );
    const changed = rows.filter((row) => slugs.get(row.id) !== row.slug);
    if (changed.length === 0) return;
    await tx`
      UPDATE ${tx(table)} AS t SET slug = u.slug
      FROM unnest(${changed.map((row) => row.id)}::int[], ${changed.map((row) => slugs.get(row.id) as string)}::text[]) AS u(id, slug)
      WHERE t.${tx(id)} = u.id`;
  });
}
