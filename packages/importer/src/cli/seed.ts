import type { CatalogueData, MasterRow, ReleaseRow } from '@catalogue/core';
import type { CatalogueStream } from '../generate/stream.js';
import type { ImportContext } from './import-discogs.js';
import { pipeBatches } from './pipe-batches.js';
import { startProgress } from './progress.js';
import { type Table, type TableRowOf, writeTable } from './tables.js';

export const SEED_BATCH_SIZE = 5_000;

export type SeedName = 'demo' | 'scale';

/**
 * `seed demo` writes generateCatalogue() (small, in memory); `seed scale` streams the
 * SCALE_SIZES catalogue table by table so memory stays constant. The generator is imported
 * lazily: the other commands never load it.
 */
export async function seedCatalogue(name: SeedName, context: ImportContext): Promise<void> {
  if (name === 'demo') {
    const { generateCatalogue } = await import('../generate/generate.js');
    await writeCatalogueData(generateCatalogue(), context);
    return;
  }
  const [{ streamCatalogue }, { SCALE_SIZES }] = await Promise.all([import('../generate/stream.js'), import('../generate/sizes.js')]);
  await writeCatalogueStream(streamCatalogue({ scale: SCALE_SIZES, titleVocabulary: 'zipf' }), context);
}

/** Writes a whole in-memory catalogue, table by table. */
export async function writeCatalogueData(data: CatalogueData, context: ImportContext): Promise<void> {
  await writeRows('artists', data.artists, data.artists.length, context);
  await writeRows('labels', data.labels, data.labels.length, context);
  await writeRows('masters', data.masters, data.masters.length, context);
  await writeRows('releases', data.releases, data.releases.length, context);
  await writeRows('festivals', data.festivals, data.festivals.length, context);
  await writeRows('bandcamp', data.bandcamp, data.bandcamp.length, context);
}

/**
 * Writes a generated stream. Masters and their releases come from one pass (generating a
 * master is the expensive part): each batch of masters is followed by its releases.
 */
export async function writeCatalogueStream(stream: CatalogueStream, context: ImportContext): Promise<void> {
  const { sizes } = stream;
  await writeRows('artists', stream.artists(), sizes.artists, context);
  await writeRows('labels', stream.labels(), sizes.labels, context);
  await writeMastersWithReleases(stream, context);
  await writeRows('festivals', stream.festivals(), sizes.festivals, context);
  await writeRows('bandcamp', stream.bandcamp(), sizes.bandcampArtists, context);
}

async function writeRows<T extends Table>(table: T, rows: Iterable<TableRowOf[T]>, total: number, context: ImportContext): Promise<void> {
  const progress = startProgress(context.progress, table, total);
  let written = 0;
  try {
    await pipeBatches(toAsync(batchesOf(rows, context.batchSize ?? SEED_BATCH_SIZE)), async (batch) => {
      await writeTable(context.writer, table, batch);
      context.tally.add(table, batch.length);
      written += batch.length;
      progress.update(written, written);
    });
  } finally {
    progress.stop();
  }
}

async function writeMastersWithReleases(stream: CatalogueStream, context: ImportContext): Promise<void> {
  const progress = startProgress(context.progress, 'masters + releases', stream.sizes.masters);
  const size = context.batchSize ?? SEED_BATCH_SIZE;
  let masters = 0;
  async function* batches(): AsyncGenerator<{ masters: MasterRow[]; releases: ReleaseRow[] }> {
    for (const batch of batchesOf(stream.mastersWithReleases(), size)) {
      yield { masters: batch.map((pair) => pair.master), releases: batch.flatMap((pair) => pair.releases) };
    }
  }
  try {
    await pipeBatches(batches(), async (batch) => {
      await writeTable(context.writer, 'masters', batch.masters);
      context.tally.add('masters', batch.masters.length);
      await writeTable(context.writer, 'releases', batch.releases);
      context.tally.add('releases', batch.releases.length);
      masters += batch.masters.length;
      progress.update(masters, masters);
    });
  } finally {
    progress.stop();
  }
}

function* batchesOf<Row>(rows: Iterable<Row>, size: number): Generator<Row[]> {
  let batch: Row[] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
