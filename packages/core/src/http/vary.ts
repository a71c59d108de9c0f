/** `Vary`, built up by the steps an answer depends on (CORS: Origin; compression: Accept-Encoding). */

/** Adds a field name to `headers.vary`, once. */
export function addVary(headers: Record<string, string>, name: string): void {
  const current = headers.vary;
  if (!current) headers.vary = name;
  else if (!current.split(',').some((part) => part.trim().toLowerCase() === name)) headers.vary = `${current}, ${name}`;
}
