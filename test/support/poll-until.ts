/** Polls `read` until it gives `want` or about `timeoutMs` of polls passed; the last value read (assert on it). */
export async function pollUntil<T>(read: () => Promise<T>, want: T, timeoutMs: number, everyMs = 500): Promise<T> {
  let value = await read();
  for (let polls = 0; value !== want && polls < timeoutMs / everyMs; polls++) {
    await new Promise((r) => setTimeout(r, everyMs));
    value = await read();
  }
  return value;
}
