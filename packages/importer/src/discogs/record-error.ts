/**
 * Thrown by a record mapper when a record cannot become a row (e.g. it has no id). The parser
 * adds the file and the record's position before it reaches the user.
 */
export class RecordError extends Error {
  override readonly name = 'RecordError';
}

/** Where an import failed: the file, the record's 1-based position in it and its id if known. */
export interface ImportErrorContext {
  source: string;
  recordNumber?: number;
  recordId?: string | number | null;
  line?: number;
}

/** An import failure with a message that names the file and the record. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly source: string;
  readonly recordNumber: number | undefined;
  readonly recordId: string | number | null | undefined;
  readonly line: number | undefined;

  constructor(context: ImportErrorContext, reason: string, options?: { cause?: unknown }) {
    super(`${describeLocation(context)}: ${reason}`, options);
    this.source = context.source;
    this.recordNumber = context.recordNumber;
    this.recordId = context.recordId;
    this.line = context.line;
  }
}

function describeLocation(context: ImportErrorContext): string {
  const parts = [context.source];
  if (context.line !== undefined) parts.push(`line ${context.line}`);
  if (context.recordNumber !== undefined) {
    const id = context.recordId === undefined || context.recordId === null ? '' : ` (id ${context.recordId})`;
    parts.push(`record #${context.recordNumber}${id}`);
  }
  return parts.join(', ');
}

/** An error as it crosses between threads (postMessage keeps no class): what importErrorFrom rebuilds. */
export interface PostedError {
  name: string;
  message: string;
  recordNumber?: number;
  recordId?: string | number | null;
}

/** `error` as a worker posts it, naming the record when it is an ImportError. */
export function postedError(error: unknown): PostedError {
  const importError = error instanceof ImportError ? error : null;
  return {
    name: importError ? 'ImportError' : error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
    ...(importError ? { recordNumber: importError.recordNumber, recordId: importError.recordId } : {}),
  };
}

/** The posted error as the thread that threw it had it: an ImportError of `source` keeps its message and record. */
export function importErrorFrom(source: string, posted: PostedError): Error {
  if (posted.name !== 'ImportError') return new Error(posted.message);
  return Object.assign(new ImportError({ source }, ''), { message: posted.message, recordNumber: posted.recordNumber, recordId: posted.recordId });
}
