/**
 * The request headers the core reads, straight from Node's `rawHeaders` (issue 14): the bridge
 * otherwise builds an undici `Headers` per request (each name and value validated, lowercased,
 * copied into its list) and every `get()` pays WebIDL brand and argument checks, while the core
 * only ever asks `get`/`has` for a handful of names (x-api-key, accept-encoding,
 * if-none-match, origin, …).
 *
 * `get`/`has` answer as `Headers` would for the same header lines: names compared without
 * case, a repeated header's values joined with ", " in the order received, values stripped of
 * leading and trailing HTTP whitespace. Node's parser has already refused what `Headers` would
 * refuse (invalid names, CR/LF/NUL in values), so no line needs checking here. Anything else
 * (iteration, `getSetCookie`, changes — a Request built from this one for a body, host-kit's
 * routed-request.ts) works on a real `Headers` made once from the same lines; from then on every
 * call goes to it, so a change is seen by later reads.
 */
export class IncomingHeaders implements Headers {
  readonly #raw: readonly string[];
  #full: Headers | null = null;

  /** `raw`: Node's IncomingMessage.rawHeaders, name and value alternating. */
  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  get(name: string): string | null {
    if (this.#full !== null) return this.#full.get(name);
    const wanted = name.toLowerCase();
    const raw = this.#raw;
    let found: string | null = null;
    for (let i = 0; i < raw.length; i += 2) {
      const line = raw[i] as string;
      // The length first: most lines differ in it, and it costs no lowercasing.
      if (line.length !== wanted.length || line.toLowerCase() !== wanted) continue;
      const value = trimHttpWhitespace(raw[i + 1] as string);
      found = found === null ? value : `${found}, ${value}`;
    }
    return found;
  }

  has(name: string): boolean {
    if (this.#full !== null) return this.#full.has(name);
    const wanted = name.toLowerCase();
    const raw = this.#raw;
    for (let i = 0; i < raw.length; i += 2) {
      const line = raw[i] as string;
      if (line.length === wanted.length && line.toLowerCase() === wanted) return true;
    }
    return false;
  }

  /** The same lines as a real Headers (pseudo-headers of HTTP/2 left out, as the bridge does). */
  #headers(): Headers {
    if (this.#full === null) {
      const lines: Array<[string, string]> = [];
      const raw = this.#raw;
      for (let i = 0; i < raw.length; i += 2) {
        const line = raw[i] as string;
        if (line.charCodeAt(0) !== 58 /* : */) lines.push([line, raw[i + 1] as string]);
      }
      this.#full = new Headers(lines);
    }
    return this.#full;
  }

  getSetCookie(): string[] {
    return this.#headers().getSetCookie();
  }

  append(name: string, value: string): void {
    this.#headers().append(name, value);
  }

  set(name: string, value: string): void {
    this.#headers().set(name, value);
  }

  delete(name: string): void {
    this.#headers().delete(name);
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#headers()) callback.call(thisArg, value, key, this);
  }

  entries(): HeadersIterator<[string, string]> {
    return this.#headers().entries();
  }

  keys(): HeadersIterator<string> {
    return this.#headers().keys();
  }

  values(): HeadersIterator<string> {
    return this.#headers().values();
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.#headers()[Symbol.iterator]();
  }
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

/** Tab, LF, CR and space at either end go, as Headers normalises a value. */
function trimHttpWhitespace(value: string): string {
  if (value.length === 0 || (!isSpace(value.charCodeAt(0)) && !isSpace(value.charCodeAt(value.length - 1)))) return value;
  let start = 0;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--;
  return value.slice(start, end);
}
