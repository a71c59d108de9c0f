/**
 * UTC calendar arithmetic on day numbers (days since 1970-01-01), with Howard Hinnant's
 * civil-from-days algorithms: exact for the proleptic Gregorian calendar and much faster than
 * going through Date objects, which matters when the scale generator writes millions of dates.
 */

export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

export function dayOf(iso: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) throw new RangeError(`not an ISO date: ${iso}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const days = daysFromCivil(year, month, day);
  const back = civilFromDays(days);
  if (back[1] !== month || back[2] !== day) throw new RangeError(`not a calendar date: ${iso}`);
  return days;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

export function isoOf(days: number): string {
  const [year, month, day] = civilFromDays(days);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

export function yearOf(days: number): number {
  return civilFromDays(days)[0];
}

export function dayOfYearStart(year: number): number {
  return daysFromCivil(year, 1, 1);
}

/** Day number of month/day (1-based month) in a year. */
export function dayOfDate(year: number, month: number, day: number): number {
  return daysFromCivil(year, month, day);
}
