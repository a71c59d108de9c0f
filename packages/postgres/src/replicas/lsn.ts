/** PostgreSQL WAL positions ('16/B374D848', pg_lsn's text form) as comparable bigints. */
export function parseLsn(text: string | null | undefined): bigint | null {
  if (!text) return null;
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}
