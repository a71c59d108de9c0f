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

  /** `artists 1,000 · masters 1,000 — 2,000 records in 1.2 s (1,667 records/s)` */
  summary(): string {
    const tables = TABLES.filter((table) => this.counts.has(table))
      .map((table) => `${table} ${formatCount(this.counts.get(table) ?? 0)}`)
      .join(' · ');
    const seconds = this.seconds();
    const rate = seconds > 0 ? Math.round(this.total() / seconds) : this.total();
    const records = `${formatCount(this.total())} records in ${seconds.toFixed(1)} s (${formatCount(rate)} records/s)`;
    return tables ? `${tables} — ${records}` : records;
  }
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}
