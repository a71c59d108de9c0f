/** Small counting helpers shared by the dossiers, so every list breaks ties the same way. */

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function countInto<K>(counts: Map<K, number>, key: K): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Top `n` names by count desc, ties alphabetical. */
export function topCounts(counts: Map<string, number>, n: number): Array<{ name: string; count: number }> {
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || compareText(a.name, b.name))
    .slice(0, n);
}

/** Counts each value once per item. */
export function countValues<T>(items: readonly T[], valuesOf: (item: T) => readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) for (const value of new Set(valuesOf(item))) countInto(counts, value);
  return counts;
}

/** Year desc with unknown years last, then master_id asc: the order of every master list. */
export function byYearDescThenId(a: { year: number | null; master_id: number }, b: { year: number | null; master_id: number }): number {
  if (a.year !== b.year) {
    if (a.year === null) return 1;
    if (b.year === null) return -1;
    return b.year - a.year;
  }
  return a.master_id - b.master_id;
}

export function yearRange(years: Iterable<number | null>): { first: number | null; last: number | null } {
  let first: number | null = null;
  let last: number | null = null;
  for (const year of years) {
    if (year === null) continue;
    if (first === null || year < first) first = year;
    if (last === null || year > last) last = year;
  }
  return { first, last };
}
