/**
 * The parse helper (issue 29): a reader that hands segments of records to it posts the same
 * COPY text, in the same order, as a reader parsing every record itself; a bad record in a
 * handed-off segment is named by its number in the file; an error further on never hides an
 * earlier one; and a helper that stops fails the reading instead of leaving it waiting.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startParseHelper } from './parse-helper.js';
import { parseSegment } from './parse-segment.js';
import { readDumpInWorker } from './read-dump.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'parse-helper-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A release with enough credits and formats to be a realistic ~1 KB record; `body` replaces its title. */
function release(id: number, body = `<title>Release ${id} – Ünïcode</title>`): string {
  return `<release id="${id}" status="Accepted"><images><image uri="x"/></images><artists><artist><id>${id % 97}</id><name>Artist ${id % 97}</name></artist></artists>${body}<labels><label name="Label ${id % 13}" catno="CAT${id}" id="${id % 13}"/></labels><extraartists><artist><id>${id % 31}</id><name>Producer ${id % 31}</name><role>Producer</role></artist></extraartists><formats><format name="Vinyl" qty="1"><descriptions><description>12"</description></descriptions></format></formats><genres><genre>Electronic</genre></genres><styles><style>Techno</style></styles><country>Sweden</country><released>1999</released><tracklist><track><title>A1</title></track></tracklist><master_id is_main_release="${id % 2 === 0}">${id}</master_id></release>\n`;
}

async function dump(name: string, records: string[]): Promise<string> {
  const file = path.join(directory, name);
  await writeFile(file, `<?xml version="1.0" encoding="UTF-8"?>\n<releases>\n${records.join('')}</releases>\n`);
  return file;
}

async function read(file: string, withHelper: boolean): Promise<{ text: string; records: number; batches: number }> {
  const helper = withHelper ? startParseHelper() : null;
  const reading = readDumpInWorker(file);
  if (helper) reading.useHelper(helper.connect());
  try {
    const chunks: Buffer[] = [];
    let batches = 0;
    for await (const batch of reading.batches) {
      chunks.push(Buffer.from(batch.bytes));
      batches += 1;
    }
    return { text: Buffer.concat(chunks).toString('utf8'), records: reading.totals().records, batches };
  } finally {
    await reading.stop();
    await helper?.stop();
  }
}

const many = (count: number, from = 1) => Array.from({ length: count }, (_, i) => release(from + i));

describe('the parse helper', () => {
  it('gives the same COPY text, in the order of the file, as a reader parsing alone', async () => {
    // About 8 MB: several segments of 1 MB, some handed off and some parsed by the reader.
    const file = await dump('same.xml', many(9_000));
    const alone = await read(file, false);
    // The helper reached through a relay that counts the records handed to it.
    const helper = startParseHelper();
    const toHelper = helper.connect();
    const { port1, port2 } = new MessageChannel();
    let handed = 0;
    port2.on('message', (request: { ends: number[] }) => {
      handed += request.ends.length;
      toHelper.postMessage(request);
    });
    toHelper.on('message', (answer) => port2.postMessage(answer));
    const reading = readDumpInWorker(file);
    reading.useHelper(port1);
    const chunks: Buffer[] = [];
    for await (const batch of reading.batches) chunks.push(Buffer.from(batch.bytes));
    await reading.stop();
    port2.close();
    await helper.stop();
    const helped = Buffer.concat(chunks).toString('utf8');
    expect(alone.records).toBe(9_000);
    expect(reading.totals().records).toBe(9_000);
    expect(handed).toBeGreaterThan(1_000);
    expect(helped.split('\n').length).toBe(9_001);
    expect(helped).toBe(alone.text);
  }, 60_000);

  it('names a bad record of a handed-off segment by its number in the file', async () => {
    const records = many(3_000);
    records[2_499] = release(2_500, '<title>Unclosed</release>');
    const file = await dump('bad.xml', records);
    await expect(read(file, true)).rejects.toThrow(`${file}, record #2500 (id 2500): malformed XML`);
    // The reader alone names the same record.
    await expect(read(file, false)).rejects.toThrow(`${file}, record #2500 (id 2500): malformed XML`);
  }, 60_000);

  it('reports the first bad record of the file when a later one fails too', async () => {
    const records = many(4_000);
    records[99] = release(100, '<title>First</titel>');
    records[3_899] = release(3_900, '<title>Second</titel>');
    const file = await dump('two-bad.xml', records);
    await expect(read(file, true)).rejects.toThrow(`${file}, record #100 (id 100)`);
  }, 60_000);

  it('fails the reading when the helper stops with a segment unanswered, instead of waiting for it', async () => {
    const file = await dump('stopped.xml', many(6_000));
    // A helper that takes the first segment and stops without answering (as a crashed thread's port closes).
    const { port1, port2 } = new MessageChannel();
    const requested = new Promise<void>((resolve) => port2.once('message', () => resolve()));
    const reading = readDumpInWorker(file);
    reading.useHelper(port1);
    const drained = (async () => {
      for await (const _batch of reading.batches) {
        // taken as they come
      }
    })();
    drained.catch(() => undefined);
    await requested;
    port2.close();
    await expect(drained).rejects.toThrow('the parse helper stopped before the end of the file');
    await reading.stop();
  }, 60_000);
});

describe('parseSegment', () => {
  it('reports a record that leaves the parser inside a comment instead of dropping the rest', () => {
    const records = [release(1), release(2, '<title>x</title><!-- never closed </release>\n')];
    const bytes = Buffer.from(records.join(''));
    const ends = [Buffer.byteLength(records[0] as string), bytes.length];
    expect(() =>
      parseSegment({
        source: 'comment.xml',
        kind: 'releases',
        bytes,
        ends,
        hashes: ['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002'],
        firstRecord: 7,
      }),
    ).toThrow(/^comment\.xml, record #8 \(id 2\): malformed XML/);
  });
});
