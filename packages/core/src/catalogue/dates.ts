/** Calendar arithmetic on ISO dates ('YYYY-MM-DD'), in UTC, without any runtime dependency. */

const DAY_MS = 86_400_000;

export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * A Discogs `released` value as a date: 'YYYY-MM-DD' as is, an unknown day or month ('00')
 * becomes '01', 'YYYY' becomes 'YYYY-01-01'. Anything else → null.
 */
export function dateOfReleased(released: string | null): string | null {
  if (!released) return null;
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(released.trim());
  if (!match) return null;
  const [, year, month = '01', day = '01'] = match;
  const date = `${year}-${month === '00' ? '01' : month}-${day === '00' ? '01' : day}`;
  const parsed = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== date ? null : date;
}

/** A pick date: the release date, else January 1st of the master year, else null. */
export function pickDate(released: string | null, masterYear: number | null): string | null {
  const date = dateOfReleased(released);
  if (date) return date;
  return masterYear !== null && masterYear > 0 ? `${String(masterYear).padStart(4, '0')}-01-01` : null;
}
