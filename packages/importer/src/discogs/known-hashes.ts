/**
 * The stored content hashes of one table, read in id order a page at a time: the dump scanner
 * merges them with the dump's records (also in id order in the Discogs dumps), so a re-import
 * knows which records are unchanged in constant memory. A record whose id comes before one
 * already looked up (a dump out of order) is treated as changed: it is parsed and staged, and
 * the upsert's own hash comparison still leaves an unchanged row alone.
 */
import type { Sql } from 'postgres';
import type { KnownHashes } from './dump-scanner.js';

const PAGE = 20_000;

export class StoredHashes implements KnownHashes {
  private ids: number[] = [];
  private hashes: (string | null)[] = [];
  private index = 0;
  private after = -1;
  private exhausted = false;
  private last = -1;

  constructor(
    private readonly sql: Sql,
    private readonly table: string,
    private readonly idColumn: string,
  ) {}

  lookup(id: number): string | undefined | 'more' {
    if (id < this.last) return undefined;
    while (this.index < this.ids.length && (this.ids[this.index] as number) < id) this.index += 1;
    if (this.index >= this.ids.length && !this.exhausted) return 'more';
    this.last = id;
    return this.ids[this.index] === id ? (this.hashes[this.index] ?? undefined) : undefined;
  }

  async loadMore(): Promise<void> {
    const rows = await this.sql.unsafe<Array<{ id: number; hash: string | null }>>(
      `SELECT ${this.idColumn} AS id, content_hash::text AS hash FROM ${this.table} WHERE ${this.idColumn} > $1 ORDER BY ${this.idColumn} LIMIT ${PAGE}`,
      [this.after],
    );
    this.ids = rows.map((row) => row.id);
    this.hashes = rows.map((row) => row.hash);
    this.index = 0;
    if (rows.length < PAGE) this.exhausted = true;
    if (rows.length > 0) this.after = this.ids[this.ids.length - 1] as number;
  }
}
