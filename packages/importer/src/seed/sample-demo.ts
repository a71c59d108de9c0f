/**
 * The demo catalogue of the embedded default: the real Discogs samples in data/discogs plus
 * generated Bandcamp series and festival lineups for their artists (generateSignalsFor), so
 * breakouts, tastemakers and ones-to-watch answer on real names. Node-only.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type CatalogueData, type CatalogueWriter, emptyCatalogueData } from '@catalogue/core';
import { openInputFile } from '../cli/open-input-file.js';
import { parseDiscogs } from '../discogs/index.js';
import { generateSignalsFor } from '../generate/index.js';

/** The four sample dumps, in the order their rows reference each other. */
export async function sampleFiles(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => /\.xml(\.gz)?$/.test(n));
  const order = ['artists', 'labels', 'masters', 'releases'];
  return order.flatMap((kind) => names.filter((n) => n.includes(kind)).map((n) => join(dir, n)));
}

/** Reads the samples into memory (1,000 records each) and adds the generated signals. */
export async function loadSampleCatalogue(dir: string): Promise<CatalogueData> {
  const data = emptyCatalogueData();
  for (const path of await sampleFiles(dir)) {
    const file = await openInputFile(path);
    for await (const batch of parseDiscogs(file.chunks, undefined, { source: path })) {
      (data[batch.kind] as unknown[]).push(...batch.rows);
    }
  }
  const signals = generateSignalsFor(data);
  data.festivals = signals.festivals;
  data.bandcamp = signals.bandcamp;
  return data;
}

const BATCH = 2_000;

async function writeAll<T>(rows: T[], write: (batch: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

export async function writeCatalogue(data: CatalogueData, writer: CatalogueWriter): Promise<void> {
  await writeAll(data.artists, (b) => writer.writeArtists(b));
  await writeAll(data.labels, (b) => writer.writeLabels(b));
  await writeAll(data.masters, (b) => writer.writeMasters(b));
  await writeAll(data.releases, (b) => writer.writeReleases(b));
  await writeAll(data.festivals, (b) => writer.writeFestivals(b));
  await writeAll(data.bandcamp, (b) => writer.writeBandcamp(b));
  await writer.finish();
}
