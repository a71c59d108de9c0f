/** One line of a JSONL feed with its 1-based line number. */
export interface NumberedLine {
  number: number;
  text: string;
}

/**
 * Splits a byte stream into lines (LF or CRLF) without holding more than one chunk and one
 * partial line. Blank lines are skipped but still counted, so numbers match an editor's.
 */
export async function* readLines(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<NumberedLine> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let number = 0;
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      number += 1;
      const text = pending.slice(0, newline).replace(/\r$/, '');
      pending = pending.slice(newline + 1);
      if (text.trim() !== '') yield { number, text };
      newline = pending.indexOf('\n');
    }
  }
  pending += decoder.decode();
  if (pending.trim() !== '') yield { number: number + 1, text: pending.replace(/\r$/, '') };
}
