/**
 * Redis Cluster's key slots (https://redis.io/docs/reference/cluster-spec/#key-distribution-model):
 * CRC16/XMODEM of the key's hash tag (the part between the first `{` and the next `}`, when not
 * empty) or of the whole key, modulo 16384. A script's keys must all sit in one slot, so the
 * limiter tags a customer's keys with its id (keys.ts); what is not per customer — the accounts
 * epoch, an instance's call-marker bitmaps — is kept once per slot, under a tag of that slot.
 */

export const SLOTS = 16_384;

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

const encoder = new TextEncoder();

function crc16(text: string): number {
  let crc = 0;
  for (const byte of encoder.encode(text)) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] as number);
  return crc;
}

/** The slot Redis Cluster gives `key`, hash tags included. */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  if (open !== -1) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return crc16(key.slice(open + 1, close)) % SLOTS;
  }
  return crc16(key) % SLOTS;
}

let tags: string[] | null = null;

/**
 * A short hash tag whose keys sit in `slot` (`s<n>`, the first n that lands there), so a
 * per-slot key can join a customer's keys in one script. The table is made once per process
 * (about 170,000 CRCs of a few bytes).
 */
export function slotTag(slot: number): string {
  if (tags === null) {
    const found: string[] = new Array(SLOTS);
    let missing = SLOTS;
    for (let n = 0; missing > 0; n++) {
      const tag = `s${n}`;
      const at = crc16(tag) % SLOTS;
      if (found[at] === undefined) {
        found[at] = tag;
        missing--;
      }
    }
    tags = found;
  }
  return tags[slot] as string;
}
