import { TABLES, type Table } from './tables.js';

/** Rows written per table and the elapsed time, for progress and the summary line. */
export class Tally {
  private readonly counts = new Map<Table, number>();
  private readonly startedAt: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.startedAt = now();
  }

  add(table: Table, rows: number): void {
    this.counts.set(table, (this.counts.get(table) ?? 0) + rows);
  }

  total(): number {
    let sum = 0;
    for (const count of this.counts.values()) sum += count;
    return sum;
  }

  seconds(): number {
    return (this.now() - this.startedAt) / 1000;
  }

  /**
   * `artists 1,000 · masters 1,000 — 2,000 records in 1.2 s (1,667 records/s)`. The time is the
   * whole command's (opening the database and the derived data included), so a small file
   * shows a small rate, with the digits that make it true (`2 records in 10.4 s (0.19
   * records/s)`), never a rounded `0`; under 0.1 s, or with no record, no rate at all.
   */
  summary(): string {
    const tables = TABLES.filter((table) => this.counts.has(table))
      .map((table) => `${table} ${formatCount(this.counts.get(table) ?? 0)}`)
      .join(' · ');
    const seconds = this.seconds();
    const total = this.total();
    const took = seconds < 0.1 ? 'under 0.1 s' : `${seconds.toFixed(1)} s`;
    const rate = seconds < 0.1 || total === 0 ? '' : ` (${formatRate(total / seconds)} records/s)`;
    const records = `${formatCount(total)} records in ${took}${rate}`;
    return tables ? `${tables} — ${records}` : records;
  }
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** A rate with the digits it needs: whole above 10, else two significant digits (`4.5`, `0.19`). */
export function formatRate(perSecond: number): string {
  return perSecond >= 10 ? formatCount(Math.round(perSecond)) : String(Number(perSecond.toPrecision(2)));
}
