/**
 * Merge statements from `staging_rows` into the catalogue tables. Each upsert only rewrites a
 * row whose document changed, so a re-import leaves the tables (and their indexes) untouched;
 * link tables of the staged ids are replaced, which makes a re-written row drop stale links.
 * A dump's artist or label row replaces the stub finish() made from credits (migration 0010).
 */
import type { TransactionSql } from 'postgres';

export async function mergeArtists(tx: TransactionSql): Promise<void> {
  await tx`
    INSERT INTO artists (discogs_id, cluster_id, name, mbid, spotify_id, doc)
    SELECT (doc->>'discogs_id')::int, (doc->>'discogs_id')::int * 4 + 1, doc->>'name', doc->>'mbid', doc->>'spotify_id', doc
    FROM staging_rows
    ON CONFLICT (discogs_id) DO UPDATE
      SET name = EXCLUDED.name, mbid = EXCLUDED.mbid, spotify_id = EXCLUDED.spotify_id, doc = EXCLUDED.doc, slug_base = NULL, content_hash = NULL, stub = false
      WHERE artists.doc IS DISTINCT FROM EXCLUDED.doc OR artists.stub`;
}

export async function mergeLabels(tx: TransactionSql): Promise<void> {
  await tx`
    INSERT INTO labels (discogs_id, cluster_id, name, parent_id, doc)
    SELECT (doc->>'discogs_id')::int, (doc->>'discogs_id')::int * 4 + 2, doc->>'name', (doc->'parent'->>'discogs_id')::int, doc
    FROM staging_rows
    ON CONFLICT (discogs_id) DO UPDATE
      SET name = EXCLUDED.name, parent_id = EXCLUDED.parent_id, doc = EXCLUDED.doc, slug_base = NULL, content_hash = NULL, stub = false
      WHERE labels.doc IS DISTINCT FROM EXCLUDED.doc OR labels.stub`;
}

/** A changed master or release drops its stored record (master_records): it is served live until finish(). */
export async function mergeMasters(tx: TransactionSql): Promise<void> {
  await tx`
    WITH changed AS (
      INSERT INTO masters (master_id, title, year, main_release_id, genres, styles, doc)
      SELECT (doc->>'master_id')::int, doc->>'title', (doc->>'year')::int, (doc->>'main_release_id')::int,
             ARRAY(SELECT jsonb_array_elements_text(doc->'genres')), ARRAY(SELECT jsonb_array_elements_text(doc->'styles')), doc
      FROM staging_rows
      ON CONFLICT (master_id) DO UPDATE
        SET title = EXCLUDED.title, year = EXCLUDED.year, main_release_id = EXCLUDED.main_release_id,
            genres = EXCLUDED.genres, styles = EXCLUDED.styles, doc = EXCLUDED.doc, content_hash = NULL
        WHERE masters.doc IS DISTINCT FROM EXCLUDED.doc
      RETURNING master_id
    )
    DELETE FROM master_records WHERE master_id IN (SELECT master_id FROM changed)`;
  await tx`DELETE FROM master_artists WHERE master_id IN (SELECT (doc->>'master_id')::int FROM staging_rows)`;
  await tx`
    INSERT INTO master_artists (artist_id, master_id)
    SELECT DISTINCT (credit->>'discogs_id')::int, (doc->>'master_id')::int
    FROM staging_rows, jsonb_array_elements(doc->'artists') AS credit
    WHERE credit->>'discogs_id' IS NOT NULL`;
}

export async function mergeReleases(tx: TransactionSql): Promise<void> {
  await tx`
    WITH changed AS (
      INSERT INTO releases (release_id, master_id, is_main_release, released, doc)
      SELECT (doc->>'release_id')::int, (doc->>'master_id')::int, (doc->>'is_main_release')::boolean, doc->>'released', doc
      FROM staging_rows
      ON CONFLICT (release_id) DO UPDATE
        SET master_id = EXCLUDED.master_id, is_main_release = EXCLUDED.is_main_release, released = EXCLUDED.released, doc = EXCLUDED.doc,
            content_hash = NULL
        WHERE releases.doc IS DISTINCT FROM EXCLUDED.doc
      RETURNING release_id
    )
    DELETE FROM master_records WHERE master_id IN (SELECT master_id FROM masters WHERE main_release_id IN (SELECT release_id FROM changed))`;
  await tx`DELETE FROM release_credits WHERE release_id IN (SELECT (doc->>'release_id')::int FROM staging_rows)`;
  await tx`
    INSERT INTO release_credits (artist_id, release_id)
    SELECT DISTINCT (credit->>'discogs_id')::int, (doc->>'release_id')::int
    FROM staging_rows, jsonb_array_elements(doc->'extra_artists') AS credit
    WHERE credit->>'discogs_id' IS NOT NULL`;
}

export async function mergeFestivals(tx: TransactionSql): Promise<void> {
  await tx`
    INSERT INTO festivals (festival_id, cluster_id, name, doc)
    SELECT (doc->>'festival_id')::int, (doc->>'festival_id')::int * 4 + 3, doc->>'name', doc
    FROM staging_rows
    ON CONFLICT (festival_id) DO UPDATE
      SET name = EXCLUDED.name, doc = EXCLUDED.doc, slug_base = NULL
      WHERE festivals.doc IS DISTINCT FROM EXCLUDED.doc`;
  await tx`DELETE FROM festival_lineups WHERE festival_id IN (SELECT (doc->>'festival_id')::int FROM staging_rows)`;
  // Two editions in one year, or an artist twice in a lineup: the first slot is kept.
  await tx`
    INSERT INTO festival_lineups (festival_id, year, artist_id, billing, starts_on)
    SELECT (doc->>'festival_id')::int, (edition->>'year')::int, (slot->>'artist_discogs_id')::int, slot->>'billing', (edition->>'starts_on')::date
    FROM staging_rows, jsonb_array_elements(doc->'editions') AS edition, jsonb_array_elements(edition->'lineup') AS slot
    ON CONFLICT (festival_id, year, artist_id) DO NOTHING`;
}

/**
 * Staged Bandcamp docs carry `_host` and `_release_keys` beside the row, computed in JS with
 * core's bandcampHostOf and releaseUrlKey so lookups normalise urls exactly as core does.
 */
export async function mergeBandcamp(tx: TransactionSql): Promise<void> {
  await tx`
    INSERT INTO bandcamp_artists (artist_id, url, host, doc)
    SELECT (doc->>'artist_discogs_id')::int, doc->>'url', doc->>'_host', doc - '_host' - '_release_keys'
    FROM staging_rows
    ON CONFLICT (artist_id) DO UPDATE
      SET url = EXCLUDED.url, host = EXCLUDED.host, doc = EXCLUDED.doc
      WHERE bandcamp_artists.doc IS DISTINCT FROM EXCLUDED.doc`;
  await tx`DELETE FROM bandcamp_observations WHERE artist_id IN (SELECT (doc->>'artist_discogs_id')::int FROM staging_rows)`;
  await tx`
    INSERT INTO bandcamp_observations (artist_id, observed_on, followers, supporters)
    SELECT (doc->>'artist_discogs_id')::int, (point->>'date')::date, (point->>'followers')::int, (point->>'supporters')::int
    FROM staging_rows, jsonb_array_elements(doc->'observations') AS point
    ON CONFLICT (artist_id, observed_on) DO UPDATE SET followers = EXCLUDED.followers, supporters = EXCLUDED.supporters`;
  await tx`DELETE FROM bandcamp_releases WHERE artist_id IN (SELECT (doc->>'artist_discogs_id')::int FROM staging_rows)`;
  await tx`
    INSERT INTO bandcamp_releases (artist_id, position, url, tags)
    SELECT (doc->>'artist_discogs_id')::int, release.position::int, doc->'_release_keys'->>(release.position::int - 1),
           ARRAY(SELECT jsonb_array_elements_text(release.value->'tags'))
    FROM staging_rows, jsonb_array_elements(doc->'releases') WITH ORDINALITY AS release(value, position)`;
}
