/** Looks for plaintext secrets (keys, tokens) in everything a service wrote: logs and store tables. */
const KEY_SHAPE = /ck_(?:live|test)_[0-9A-Za-z]{32}/g;

function serialize(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v instanceof Map ? [...v.entries()] : v instanceof Set ? [...v] : v));
}

/** Returns what was found: each known secret present, and anything shaped like a full key. */
export function secretsFoundIn(stores: Record<string, unknown>, known: string[]): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(stores)) {
    const text = serialize(value);
    for (const secret of known) if (secret && text.includes(secret)) found.push(`${name}: ${secret.slice(0, 12)}…`);
    for (const match of text.match(KEY_SHAPE) ?? []) found.push(`${name}: key-shaped ${match.slice(0, 12)}…`);
  }
  return [...new Set(found)];
}
