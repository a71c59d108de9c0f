/**
 * A Discogs-format dump of N records per file, built from the real 1,000-record samples in
 * data/discogs (issue 13): record i is sample record i mod 1,000 with fresh ids. Every id (the
 * record's own and every reference to an artist, label, master or release) is remapped into
 * 1 … N, so derived cluster ids (id × 4 + 2) stay far inside 32 bits (docs/decisions.md §5)
 * and references land on records the dump holds, as in a real dump. The files are gzip, like
 * Discogs', and kept under the cache directory so a re-run reuses them.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip, createGzip } from 'node:zlib';
import { cutRecord, rootName } from '../../packages/importer/src/discogs/record-cutter.js';

export const KINDS = ['artists', 'labels', 'masters', 'releases'] as const;
/**
 * How releases refer to masters: `spread` (the sample's references remapped over the whole
 * dump) or `clustered` (every master reference lands on one of CLUSTERED_MASTERS masters: heavy
 * masters with thousands of versions each, as real dumps have; issue 29).
 */
export type References = 'spread' | 'clustered';
export const CLUSTERED_MASTERS = 1_000;
export type Kind = (typeof KINDS)[number];
const ELEMENT: Record<Kind, string> = { artists: 'artist', labels: 'label', masters: 'master', releases: 'release' };
const SAMPLES = fileURLToPath(new URL('../../data/discogs/', import.meta.url));

async function readAll(file: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file).pipe(createGunzip())) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The sample's records as text, in order. */
async function sampleRecords(kind: Kind): Promise<string[]> {
  const bytes = await readAll(path.join(SAMPLES, `discogs_20200806_${kind}.xml.gz`));
  const root = rootName(bytes);
  if (!root) throw new Error(`${kind}: no root element`);
  const records: string[] = [];
  let at = root.end;
  for (;;) {
    const cut = cutRecord(bytes, ELEMENT[kind], at);
    if (!cut) break;
    records.push(bytes.toString('utf8', cut.start, cut.end));
    at = cut.end;
  }
  return records;
}

/** A record's own id as written in the sample. */
const OWN_ID: Record<Kind, RegExp> = {
  artists: /<id>(\d+)<\/id>/,
  labels: /<id>(\d+)<\/id>/,
  masters: /^<master id="(\d+)"/,
  releases: /^<release id="(\d+)"/,
};

/**
 * Remaps ids: an id the sample of its kind holds becomes that record's fresh id in the same
 * round; any other id a record of the round chosen by the id itself, so references spread
 * over the whole dump.
 */
class IdMap {
  private readonly index = new Map<number, number>();
  constructor(
    ids: readonly number[],
    private readonly perKind: number,
  ) {
    for (const [i, id] of ids.entries()) this.index.set(id, i);
  }
  fresh(id: number, round: number, size: number): number {
    const known = this.index.get(id);
    if (known !== undefined) return Math.min(round * size + known + 1, this.perKind);
    return ((Math.imul(id, 2_654_435_761) >>> 0) % this.perKind) + 1;
  }
}

/** Replaces every id of a record (its own and its references) for round `round`. */
function rewrite(kind: Kind, text: string, round: number, maps: Record<Kind, IdMap>, size: number, references: References): string {
  const id = (map: Kind) => (_: string, before: string, value: string) => `${before}${maps[map].fresh(Number(value), round, size)}`;
  const master =
    references === 'clustered'
      ? (_: string, before: string, value: string) => `${before}${((maps.masters.fresh(Number(value), round, size) - 1) % CLUSTERED_MASTERS) + 1}`
      : id('masters');
  switch (kind) {
    case 'artists':
      // <id> is the artist's own (and the old format's member ids); <name id="…"> aliases, members, groups.
      return text.replace(/(<id>)(\d+)/g, id('artists')).replace(/(<name id=")(\d+)/g, id('artists'));
    case 'labels':
      return text.replace(/(<id>)(\d+)/g, id('labels')).replace(/(<(?:parentLabel|label) id=")(\d+)/g, id('labels'));
    case 'masters':
      return text
        .replace(/^(<master id=")(\d+)/, id('masters'))
        .replace(/(<main_release>)(\d+)/g, id('releases'))
        .replace(/(<artist><id>)(\d+)/g, id('artists'));
    case 'releases':
      return text
        .replace(/^(<release id=")(\d+)/, id('releases'))
        .replace(/(<artist><id>)(\d+)/g, id('artists'))
        .replace(/(<label [^>]*?id=")(\d+)/g, id('labels'))
        .replace(/(<master_id[^>]*>)(\d+)/g, master);
  }
}

/** The four dump files of `perKind` records each (or `counts` per kind), built unless cached. */
export async function buildDump(
  directory: string,
  counts: Record<Kind, number>,
  log: (line: string) => void,
  references: References = 'spread',
): Promise<Record<Kind, string>> {
  await mkdir(directory, { recursive: true });
  // Only the releases differ between the shapes (their master references).
  const suffix = (kind: Kind) => (references === 'clustered' && kind === 'releases' ? '_clustered' : '');
  const files = Object.fromEntries(KINDS.map((kind) => [kind, path.join(directory, `discogs_bench_${kind}_${counts[kind]}${suffix(kind)}.xml.gz`)])) as Record<
    Kind,
    string
  >;
  if (KINDS.every((kind) => existsSync(files[kind]))) return files;
  const samples = {} as Record<Kind, string[]>;
  for (const kind of KINDS) samples[kind] = await sampleRecords(kind);
  const maps = Object.fromEntries(
    KINDS.map((kind) => [
      kind,
      new IdMap(
        samples[kind].map((record) => Number(OWN_ID[kind].exec(record)?.[1] ?? 0)),
        counts[kind],
      ),
    ]),
  ) as Record<Kind, IdMap>;
  for (const kind of KINDS) {
    if (existsSync(files[kind])) continue;
    const startedAt = performance.now();
    const sample = samples[kind];
    const partial = `${files[kind]}.partial`;
    const gzip = createGzip({ level: 1 });
    const out = gzip.pipe(createWriteStream(partial));
    const write = async (text: string) => {
      if (!gzip.write(text)) await once(gzip, 'drain');
    };
    await write(`<${kind}>\n`);
    let pending = '';
    for (let i = 0; i < counts[kind]; i++) {
      const round = Math.floor(i / sample.length);
      pending += `${rewrite(kind, sample[i % sample.length] as string, round, maps, sample.length, references)}\n`;
      if (pending.length > 1 << 20) {
        await write(pending);
        pending = '';
      }
    }
    await write(`${pending}</${kind}>\n`);
    gzip.end();
    await once(out, 'finish');
    renameSync(partial, files[kind]);
    log(`built ${path.basename(files[kind])} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  }
  return files;
}
