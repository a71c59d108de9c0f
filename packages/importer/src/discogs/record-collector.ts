import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { type DiscogsKind, isDiscogsKind, RECORD_MAPPERS } from './kinds.js';
import { ImportError, RecordError } from './record-error.js';
import type { XmlNode } from './xml-node.js';

/**
 * Subtrees no row reads. Skipping them keeps the per-record tree small: a release's tracklist,
 * videos and notes are most of its bytes.
 */
const SKIPPED_ELEMENTS = new Set(['images', 'videos', 'tracklist', 'notes', 'identifiers', 'companies', 'tracks']);

/**
 * Drives a SAX parser over one dump and turns each record element into a row as soon as it
 * closes. Depth 1 is the root (it names the kind), depth 2 a record; nothing larger than one
 * record is ever held, apart from the rows completed since the caller last took them.
 */
export class RecordCollector {
  /** Rows completed and not yet taken by the caller. */
  readonly completed: unknown[] = [];
  kind: DiscogsKind | undefined;
  /** Records mapped so far in this document. */
  recordCount = 0;

  private readonly parser = new SaxesParser({ position: false });
  private readonly stack: XmlNode[] = [];
  private depth = 0;
  /** Depth of the skipped element we are inside, 0 when not skipping. */
  private skipDepth = 0;
  private lastRecordId: string | undefined;

  constructor(
    private readonly source: string,
    private readonly expectedKind: DiscogsKind | undefined,
  ) {
    this.parser.on('opentag', (tag) => this.open(tag as SaxesTagPlain));
    this.parser.on('closetag', () => this.close());
    this.parser.on('text', (text) => this.append(text));
    this.parser.on('cdata', (text) => this.append(text));
  }

  write(text: string): void {
    this.guard(() => this.parser.write(text));
  }

  end(): void {
    this.guard(() => this.parser.close());
  }

  private open(tag: SaxesTagPlain): void {
    this.depth += 1;
    if (this.depth === 1) {
      this.kind = this.kindOfRoot(tag.name);
      return;
    }
    if (this.skipDepth > 0) return;
    if (this.depth > 2 && SKIPPED_ELEMENTS.has(tag.name)) {
      this.skipDepth = this.depth;
      return;
    }
    if (this.depth === 2) {
      const kind = this.kind as DiscogsKind;
      const element = RECORD_MAPPERS[kind].element;
      if (tag.name !== element) {
        throw new RecordError(`unexpected <${tag.name}> in <${kind}>: every record must be a <${element}>`);
      }
    }
    const node: XmlNode = { name: tag.name, attributes: tag.attributes, children: [], text: '' };
    this.stack.at(-1)?.children.push(node);
    this.stack.push(node);
  }

  private close(): void {
    const depth = this.depth;
    this.depth -= 1;
    if (depth === 1) return;
    if (this.skipDepth > 0) {
      if (depth === this.skipDepth) this.skipDepth = 0;
      return;
    }
    // A record is mapped while still on the stack, so a mapping error can name it.
    if (depth === 2) this.finishRecord(this.stack[0] as XmlNode);
    this.stack.pop();
  }

  private append(text: string): void {
    if (this.skipDepth > 0) return;
    const top = this.stack.at(-1);
    if (top) top.text += text;
  }

  private finishRecord(record: XmlNode): void {
    const mapper = RECORD_MAPPERS[this.kind as DiscogsKind];
    const row = mapper.map(record);
    this.completed.push(row);
    this.recordCount += 1;
    this.lastRecordId = mapper.idOf(record);
  }

  private kindOfRoot(name: string): DiscogsKind {
    if (!isDiscogsKind(name)) {
      throw new ImportError({ source: this.source }, `unknown root element <${name}>: expected <artists>, <labels>, <masters> or <releases>`);
    }
    if (this.expectedKind !== undefined && name !== this.expectedKind) {
      throw new ImportError({ source: this.source }, `expected a ${this.expectedKind} dump but the root element is <${name}>`);
    }
    return name;
  }

  /** Turns any failure into an ImportError that names the file and the record. */
  private guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (error instanceof ImportError) throw error;
      const inRecord = this.stack.length > 0;
      const reason = error instanceof RecordError ? error.message : `malformed XML: ${messageOf(error)}`;
      if (inRecord) {
        const record = this.stack[0] as XmlNode;
        const id = this.kind ? RECORD_MAPPERS[this.kind].idOf(record)?.trim() || null : null;
        throw new ImportError({ source: this.source, recordNumber: this.recordCount + 1, recordId: id }, reason, {
          cause: error,
        });
      }
      if (error instanceof RecordError || this.recordCount === 0) {
        throw new ImportError({ source: this.source }, reason, { cause: error });
      }
      const after = `${reason} (after record #${this.recordCount}${this.lastRecordId ? `, id ${this.lastRecordId}` : ''})`;
      throw new ImportError({ source: this.source }, after, { cause: error });
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
