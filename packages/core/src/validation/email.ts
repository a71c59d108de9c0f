/**
 * The one rule for an e-mail address, wherever one is taken (signup, dashboard sign-in, admin
 * keys): what RFC 5321 accepts in practice. valibot's `rfcEmail` is the WHATWG HTML rule that a
 * browser's `<input type="email">` applies (any atext character in the local part: `o'brien`,
 * `first.last+tag`; a domain of LDH labels), and on top of it RFC 5321's dot-string (no leading,
 * trailing or doubled dot in the local part) and its sizes (local part 64 octets, path 254).
 * Quoted local parts and address literals (`"a b"@x`, `a@[192.0.2.1]`) are refused: no mail
 * provider hands them out, and they are where header and SMTP injection hide.
 */
import * as v from 'valibot';

const MESSAGE = 'must be an e-mail address';

/** RFC 5321 §4.1.2 dot-string and §4.5.3.1 sizes, on an address `rfcEmail` already accepted. */
function dotStringWithinSizes(address: string): boolean {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  return local.length <= 64 && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
}

export const EmailSchema = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(254, MESSAGE),
  v.rfcEmail(MESSAGE),
  v.check(dotStringWithinSizes, MESSAGE),
);
