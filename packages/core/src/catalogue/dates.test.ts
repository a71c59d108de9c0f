import { describe, expect, it } from 'vitest';
import { addDays, dateOfReleased, daysBetween, pickDate } from './dates.js';

describe('dates', () => {
  it('reads Discogs released values with unknown parts as the first day', () => {
    expect(dateOfReleased('1999-03-17')).toBe('1999-03-17');
    expect(dateOfReleased('1999-03-00')).toBe('1999-03-01');
    expect(dateOfReleased('1999-00-00')).toBe('1999-01-01');
    expect(dateOfReleased('1999')).toBe('1999-01-01');
    expect(dateOfReleased('1999-02-30')).toBeNull();
    expect(dateOfReleased('soon')).toBeNull();
    expect(dateOfReleased(null)).toBeNull();
  });

  it('falls back to the master year for a pick date', () => {
    expect(pickDate(null, 2001)).toBe('2001-01-01');
    expect(pickDate('junk', null)).toBeNull();
    expect(pickDate('2003-05-00', 2001)).toBe('2003-05-01');
  });

  it('counts days across leap years', () => {
    expect(addDays('2024-06-30', -180)).toBe('2024-01-02');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(daysBetween('2024-02-10', '2024-06-30')).toBe(141);
    expect(daysBetween('2023-07-01', '2024-06-30')).toBe(365);
  });
});
