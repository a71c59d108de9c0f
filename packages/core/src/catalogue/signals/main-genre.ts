/** The main genre of an artist: the genre most of its masters carry. */

/**
 * Most frequent genre over the given masters (each master counts a genre once), ties broken
 * alphabetically; null without masters or genres.
 */
export function mainGenreOf(masters: ReadonlyArray<{ genres: readonly string[] }>): string | null {
  const counts = new Map<string, number>();
  for (const master of masters) for (const genre of new Set(master.genres)) counts.set(genre, (counts.get(genre) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [genre, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && genre < best)) {
      best = genre;
      bestCount = count;
    }
  }
  return best;
}
