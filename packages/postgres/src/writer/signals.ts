/**
 * Precomputes breakouts, first breakouts, tastemaker standings and ones-to-watch with core's
 * computeSignals over the same inputs the memory catalogue feeds it, and stores the results.
 * Inputs are read in pages; only picks of artists with a Bandcamp series can count, so only
 * masters with such an artist are read for label picks.
 */
import { type BandcampObservation, clusterIdOf, type FestivalRow, type MasterRow, type ReleaseRow } from '@catalogue/core';
import {
  computeSignals,
  festivalPicksOf,
  labelPicksOf,
  mainGenreOf,
  type Pick,
  type SignalArtist,
  sortedObservations,
  type TastemakerInfo,
} from '@catalogue/core/catalogue';
import { type Db, within } from './db.js';

function keepEarliest(picks: Map<string, Pick>, pick: Pick): void {
  const key = `${pick.tastemaker_id}:${pick.artist_id}`;
  const known = picks.get(key);
  if (!known || pick.picked_on < known.picked_on) picks.set(key, pick);
}

export async function recomputeSignals(sql: Db, pageSize: number): Promise<void> {
  const artistRows = await sql<
    Array<{ discogs_id: number; slug: string | null; name: string; observations: BandcampObservation[]; genres: string[][] | null }>
  >`
    SELECT a.discogs_id, a.slug, a.name, b.doc->'observations' AS observations,
           (SELECT json_agg(m.genres) FROM master_artists ma JOIN masters m ON m.master_id = ma.master_id WHERE ma.artist_id = a.discogs_id) AS genres
    FROM bandcamp_artists b JOIN artists a ON a.discogs_id = b.artist_id
    ORDER BY a.discogs_id`;
  const artists: SignalArtist[] = artistRows.map((row) => ({
    cluster_id: clusterIdOf('artist', row.discogs_id),
    slug: row.slug ?? '',
    name: row.name,
    genre: mainGenreOf((row.genres ?? []).map((genres) => ({ genres }))),
    observations: sortedObservations(row.observations),
  }));

  // labelPicksOf keeps the earliest date per (label, artist); merging pages the same way gives
  // the result of one call over every master.
  const picks = new Map<string, Pick>();
  let after = -2_147_483_648;
  for (;;) {
    const rows = await sql<Array<{ master_id: number; master: MasterRow; main_release: ReleaseRow | null }>>`
      SELECT m.master_id, m.doc AS master, r.doc AS main_release
      FROM masters m JOIN releases r ON r.release_id = m.main_release_id
      WHERE m.master_id > ${after}
        AND EXISTS (SELECT 1 FROM master_artists ma JOIN bandcamp_artists b ON b.artist_id = ma.artist_id WHERE ma.master_id = m.master_id)
      ORDER BY m.master_id LIMIT ${pageSize}`;
    if (rows.length === 0) break;
    const page = labelPicksOf(
      rows.map((row) => row.master),
      rows.flatMap((row) => (row.main_release ? [row.main_release] : [])),
    );
    for (const pick of page) keepEarliest(picks, pick);
    after = (rows[rows.length - 1] as { master_id: number }).master_id;
  }
  const festivals = await sql<Array<{ slug: string | null; doc: FestivalRow }>>`SELECT slug, doc FROM festivals ORDER BY festival_id`;
  for (const pick of festivalPicksOf(festivals.map((row) => row.doc))) keepEarliest(picks, pick);

  const labelIds = [...new Set([...picks.values()].filter((pick) => pick.tastemaker_id % 4 === 2).map((pick) => (pick.tastemaker_id - 2) / 4))];
  const labels = await sql<Array<{ discogs_id: number; slug: string | null; name: string }>>`
    SELECT discogs_id, slug, name FROM labels WHERE discogs_id = ANY(${labelIds}::int[])`;
  const tastemakers: TastemakerInfo[] = [
    ...labels.map((row) => ({ cluster_id: clusterIdOf('label', row.discogs_id), kind: 'label' as const, slug: row.slug ?? '', name: row.name })),
    ...festivals.map((row) => ({
      cluster_id: clusterIdOf('festival', row.doc.festival_id),
      kind: 'festival' as const,
      slug: row.slug ?? '',
      name: row.doc.name,
    })),
  ];

  const signals = computeSignals({ artists, tastemakers, picks: [...picks.values()] });
  const genreKey = (genre: string | null) => genre?.toLowerCase() ?? null;

  await within(sql, async (tx) => {
    await tx`DELETE FROM signal_breakouts`;
    await tx`DELETE FROM signal_tastemakers`;
    await tx`DELETE FROM signal_ones_to_watch`;
    await tx`DELETE FROM artist_signals`;
    await tx`DELETE FROM signal_state`;
    await tx`INSERT INTO signal_state (as_of) VALUES (${signals.asOf}::date)`;
    const breakoutRows = (['30d', '90d'] as const).flatMap((window) =>
      signals.breakouts[window].map((item, position) => ({
        window_days: window === '30d' ? 30 : 90,
        position,
        cluster_id: item.cluster_id,
        genre_key: genreKey(item.genre),
        item,
      })),
    );
    if (breakoutRows.length > 0) {
      await tx`INSERT INTO signal_breakouts (window_days, position, cluster_id, genre_key, item)
               SELECT * FROM jsonb_to_recordset(${tx.json(breakoutRows as never)}::jsonb)
                 AS x(window_days int, position int, cluster_id int, genre_key text, item jsonb)`;
    }
    const standingRows = signals.standings.map((standing, position) => ({ position, kind: standing.kind, cluster_id: standing.cluster_id, standing }));
    if (standingRows.length > 0) {
      await tx`INSERT INTO signal_tastemakers (position, kind, cluster_id, standing)
               SELECT * FROM jsonb_to_recordset(${tx.json(standingRows as never)}::jsonb)
                 AS x(position int, kind text, cluster_id int, standing jsonb)`;
    }
    const watchRows = signals.onesToWatch.map((item, position) => ({ position, cluster_id: item.cluster_id, genre_key: genreKey(item.genre), item }));
    if (watchRows.length > 0) {
      await tx`INSERT INTO signal_ones_to_watch (position, cluster_id, genre_key, item)
               SELECT * FROM jsonb_to_recordset(${tx.json(watchRows as never)}::jsonb)
                 AS x(position int, cluster_id int, genre_key text, item jsonb)`;
    }
    const artistRowsOut = artists.map((artist) => ({
      cluster_id: artist.cluster_id,
      main_genre: artist.genre,
      first_breakout_on: signals.firstBreakouts.get(artist.cluster_id) ?? null,
    }));
    if (artistRowsOut.length > 0) {
      await tx`INSERT INTO artist_signals (cluster_id, main_genre, first_breakout_on)
               SELECT * FROM jsonb_to_recordset(${tx.json(artistRowsOut as never)}::jsonb)
                 AS x(cluster_id int, main_genre text, first_breakout_on date)`;
    }
  });
}
