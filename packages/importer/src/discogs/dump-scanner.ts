/**
 * The bulk import's reader of one dump (issue 13): records are cut from the decompressed bytes
 * with indexOf (record-cutter.ts), the subtrees no row reads are cut out, and what is left is
 * hashed; a record whose hash equals the stored one (KnownHashes, a merge over the live table
 * in id order) is skipped without being decoded or parsed. Only the other records go through
 * the SAX collector (the same mappers and error messages as parseDiscogs), so a re-import of
 * an unchanged dump parses nothing. Memory: one record and one chunk, whatever the dump's size.
 */
import { createHash } from 'node:crypto';
import { type DiscogsKind, RECORD_MAPPERS } from './kinds.js';
import { RecordCollector } from './record-collector.js';
import { cutRecord, rootName, skippedElements, withoutElements } from './record-cutter.js';
import { ImportError } from './record-error.js';

/** The subtrees the SAX collector skips (record-collector.ts): cut out before parsing. */
const SKIPPED = skippedElements(['images', 'videos', 'tracklist', 'notes', 'identifiers', 'companies', 'tracks']);

/**
 * Part of every content hash: changing how records become rows (a mapper, a derived column)
 * must change this, so the next import rewrites every row instead of skipping "unchanged" ones.
 */
export const CONTENT_HASH_VERSION = 'catalogue-import-1\n';

/** A record left unclosed this long is not cut any more: the rest goes to the parser as is. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** Stored content hashes of one table, read in id order; see dump-worker.ts. */
export interface KnownHashes {
  /** The stored hash of `id`, undefined when none, or 'more' when the next page must be read first. */
  lookup(id: number): string | undefined | 'more';
  loadMore(): Promise<void>;
}

export interface ScannedRow {
  row: unknown;
  /** The content hash as a uuid's text; null when the record could not be cut out on its own. */
  hash: string | null;
}

export type ScanStep = 'need-input' | 'need-known';

/**
 * Offered each record to be parsed (cut, hashed and not skipped as unchanged), with its 1-based
 * number in the file; true when the callee takes it (dump-worker.ts hands it to the parse
 * helper), and then the scanner only counts it.
 */
export type HandOff = (record: Buffer, hash: string, recordNumber: number) => boolean;

function uuidOf(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const OPEN_ID = Buffer.from('<id>');
const CLOSE_ID = Buffer.from('</id>');
const ID_ATTRIBUTE = Buffer.from(' id="');

/** The record's own id read from its bytes (the first `<id>`, or the `id` attribute), or null. */
function rawIdOf(kind: DiscogsKind, record: Buffer): number | null {
  let text: string;
  if (kind === 'artists' || kind === 'labels') {
    const open = record.indexOf(OPEN_ID);
    if (open < 0) return null;
    const close = record.indexOf(CLOSE_ID, open);
    if (close < 0) return null;
    text = record.toString('latin1', open + OPEN_ID.length, close);
  } else {
    const tagEnd = record.indexOf(0x3e);
    const at = record.indexOf(ID_ATTRIBUTE);
    if (at < 0 || at > tagEnd) return null;
    const close = record.indexOf(0x22, at + ID_ATTRIBUTE.length);
    text = record.toString('latin1', at + ID_ATTRIBUTE.length, close);
  }
  return /^\d{1,10}$/.test(text) ? Number(text) : null;
}

export class DumpScanner {
  kind: DiscogsKind | undefined;
  /** Records seen (parsed or skipped). */
  records = 0;
  /** Records skipped because their hash is the stored one. */
  unchanged = 0;

  private pending: Buffer = Buffer.alloc(0);
  private at = 0;
  private readonly collector: RecordCollector;
  /** Stored hashes of the dump's table, asked for once the root names it (knownFor). */
  private known: KnownHashes | undefined;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  /** Cutting gave up (a record never closed): everything left goes to the parser as is. */
  private raw = false;
  private element = '';
  /** A record cut but not yet handled because its stored hash was not loaded yet. */
  private held: { between: Buffer; record: Buffer; end: number } | null = null;

  constructor(
    private readonly source: string,
    expectedKind: DiscogsKind | undefined,
    private readonly knownFor: ((kind: DiscogsKind) => KnownHashes | undefined) | undefined,
    private readonly emit: (row: ScannedRow) => void,
    private readonly handOff?: HandOff,
  ) {
    this.collector = new RecordCollector(source, expectedKind);
  }

  /** Appends decompressed bytes; call scan() until it answers 'need-input'. */
  push(chunk: Buffer): void {
    const rest = this.pending.subarray(this.at);
    this.pending = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
    this.at = 0;
  }

  /** Handles every complete record; 'need-known' asks for known.loadMore() and another scan(). */
  scan(): ScanStep {
    if (this.raw) {
      this.feed(this.pending.subarray(this.at));
      this.at = this.pending.length;
      this.drain(null);
      return 'need-input';
    }
    if (this.kind === undefined) {
      const root = rootName(this.pending);
      if (!root) return 'need-input';
      this.feed(this.pending.subarray(0, root.end));
      this.at = root.end;
      this.kind = this.collector.kind as DiscogsKind;
      this.element = RECORD_MAPPERS[this.kind].element;
      this.known = this.knownFor?.(this.kind);
    }
    for (;;) {
      if (this.held) {
        if (this.handle(this.held.between, this.held.record) === 'need-known') return 'need-known';
        this.at = this.held.end;
        this.held = null;
      }
      const cut = cutRecord(this.pending, this.element, this.at);
      if (!cut) {
        if (this.pending.length - this.at > MAX_RECORD_BYTES) this.raw = true;
        return this.raw ? this.scan() : 'need-input';
      }
      this.held = { between: this.pending.subarray(this.at, cut.start), record: this.pending.subarray(cut.start, cut.end), end: cut.end };
    }
  }

  /** The end of the input: what is left (the root's closing tag) is parsed and the document closed. */
  end(): void {
    this.feed(this.pending.subarray(this.at));
    this.pending = Buffer.alloc(0);
    this.at = 0;
    this.collector.end();
    this.drain(null);
  }

  private handle(between: Buffer, raw: Buffer): 'done' | 'need-known' {
    const record = withoutElements(raw, SKIPPED);
    const hash = uuidOf(createHash('md5').update(CONTENT_HASH_VERSION).update(record).digest('hex'));
    if (this.known) {
      const id = rawIdOf(this.kind as DiscogsKind, record);
      if (id !== null) {
        const stored = this.known.lookup(id);
        if (stored === 'more') return 'need-known';
        if (stored === hash) {
          this.unchanged += 1;
          this.skip(between);
          return 'done';
        }
      }
    }
    if (this.handOff?.(record, hash, this.records + 1)) {
      this.skip(between);
      return 'done';
    }
    if (between.length > 0) this.feed(between);
    this.feed(record);
    this.drain(hash);
    return 'done';
  }

  /** A record not parsed here (unchanged, or handed off): counted, and the document around it kept whole. */
  private skip(between: Buffer): void {
    this.records += 1;
    this.collector.recordCount += 1;
    if (between.length > 1) this.feed(between);
  }

  private feed(bytes: Buffer): void {
    if (bytes.length === 0) return;
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch (error) {
      throw new ImportError({ source: this.source }, 'the file is not valid UTF-8', { cause: error });
    }
    this.collector.write(text);
  }

  private drain(hash: string | null): void {
    const rows = this.collector.completed;
    for (const row of rows) this.emit({ row, hash });
    this.records += rows.length;
    rows.length = 0;
  }
}
