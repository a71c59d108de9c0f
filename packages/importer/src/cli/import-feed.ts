import path from 'node:path';
import { parseBandcampFeed } from '../feeds/bandcamp-feed.js';
import { parseFestivalsFeed } from '../feeds/festivals-feed.js';
import type { ImportContext } from './import-discogs.js';
import { openInputFile } from './open-input-file.js';
import { pipeBatches } from './pipe-batches.js';
import { startProgress } from './progress.js';
import { writeTable } from './tables.js';

export type FeedName = 'bandcamp' | 'festivals';

/** Streams one JSONL feed into the writer; progress is bytes of the file read. */
export async function importFeedFile(feed: FeedName, file: string, context: ImportContext): Promise<void> {
  const input = await openInputFile(file);
  const progress = startProgress(context.progress, path.basename(file), input.size);
  const options = { source: file, batchSize: context.batchSize };
  let rows = 0;
  const written = (count: number) => {
    context.tally.add(feed, count);
    rows += count;
    progress.update(input.bytesRead(), rows);
  };
  try {
    if (feed === 'bandcamp') {
      await pipeBatches(parseBandcampFeed(input.chunks, options), async (batch) => {
        await writeTable(context.writer, 'bandcamp', batch);
        written(batch.length);
      });
    } else {
      await pipeBatches(parseFestivalsFeed(input.chunks, options), async (batch) => {
        await writeTable(context.writer, 'festivals', batch);
        written(batch.length);
      });
    }
    progress.update(input.size, rows);
  } finally {
    progress.stop();
  }
}
