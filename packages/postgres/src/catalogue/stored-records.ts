/**
 * Reads of stored master records (master_records) by id, the small ones coalesced: every read
 * of a few ids made while the process handles one turn of I/O joins a single query, sent once
 * that turn's callbacks have run (setImmediate). Eight clients reading one master each cost
 * eight queries on eight pool connections before: eight writes, eight backends woken and eight
 * results parsed for eight index probes. On the 2-core bench machine those wake-ups, not the
 * probes, were most of a master read's CPU (issue 14 item 3).
 *
 * Master records are catalogue data, the same for every customer, so one query serving several
 * customers' requests hands none of them anything another could not read. Each read keeps its
 * own request's lifetime: one already ended never joins, and one that ends while the query runs
 * is answered 504 request_aborted as a lone query would be (backstops.ts); the others are not
 * affected. A failure of the shared query (statement timeout, lost connection, pool_exhausted)
 * is every joined read's failure, as it would have been for each alone.
 *
 * Reads of many ids (the batch route's 500) run alone: joined, eight of them would be one
 * 4,000-row query on one backend instead of eight spread over both cores.
 */
import type { AbortProbe } from '@catalogue/core';
import type { Sql } from 'postgres';
import { requestAborted } from '../backstops.js';
import type { Reader } from './reader.js';

export interface StoredRecord {
  master_id: number;
  json: string;
}

/** Stored records and the catalogue generation they are of, read by one statement (one snapshot). */
export interface StoredRead {
  records: StoredRecord[];
  generation: number;
}

/**
 * The generation rides in the records' statement as a row of its own (no master has id 0), so
 * the records and the generation are of one snapshot: the record cache checks its kept records
 * against it (record-cache.ts, issue 29).
 */
const GENERATION_ROW = 0;

/** A read of at most this many ids joins the turn's query (the master route reads one). */
export const COALESCE_UP_TO = 32;
/** One joined query asks for at most this many ids; more joined reads start another. */
const MAX_JOINED_IDS = 256;

interface Waiter {
  ids: readonly number[];
  abort: AbortProbe | undefined;
  resolve(read: StoredRead): void;
  reject(error: unknown): void;
}

/** After the current turn's I/O callbacks (Node, Bun); a zero timer where there is no setImmediate. */
const afterThisTurn: (run: () => void) => void = typeof setImmediate === 'function' ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0);

export class StoredRecords {
  #waiting: Waiter[] = [];
  #waitingIds = 0;
  #scheduled = false;

  constructor(
    private readonly sql: Sql,
    private readonly read: Reader,
    /** 0 turns coalescing off: every read is its own query. */
    private readonly coalesceUpTo: number = COALESCE_UP_TO,
  ) {}

  /**
   * The stored records of `ids` (distinct), in no particular order, ids without one left out,
   * and the generation of the catalogue they were read from (no ids: the generation alone).
   */
  byIds(ids: readonly number[], abort: AbortProbe | undefined): Promise<StoredRead> {
    if (ids.length > this.coalesceUpTo) return this.#query(ids, abort);
    if (abort?.aborted) return Promise.reject(requestAborted());
    return new Promise<StoredRead>((resolve, reject) => {
      if (this.#waitingIds + ids.length > MAX_JOINED_IDS) this.#flush();
      this.#waiting.push({ ids, abort, resolve, reject });
      this.#waitingIds += ids.length;
      if (!this.#scheduled) {
        this.#scheduled = true;
        afterThisTurn(this.#flushScheduled);
      }
    });
  }

  readonly #flushScheduled = (): void => {
    this.#scheduled = false;
    this.#flush();
  };

  /** Sends the waiting reads as one query and answers each with its own records. */
  #flush(): void {
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    this.#waitingIds = 0;
    if (waiting.length === 1) {
      const [only] = waiting as [Waiter];
      this.#query(only.ids, only.abort).then(only.resolve, only.reject);
      return;
    }
    const ids = new Set<number>();
    for (const waiter of waiting) for (const id of waiter.ids) ids.add(id);
    // No probe of its own: the query serves every joined read, and each is checked after it.
    this.#query([...ids], undefined).then(
      ({ records, generation }) => {
        const byId = new Map<number, StoredRecord>();
        for (const row of records) byId.set(row.master_id, row);
        for (const waiter of waiting) {
          if (waiter.abort?.aborted) {
            waiter.reject(requestAborted());
            continue;
          }
          const found: StoredRecord[] = [];
          for (const id of waiter.ids) {
            const row = byId.get(id);
            if (row !== undefined) found.push(row);
          }
          waiter.resolve({ records: found, generation });
        }
      },
      (error: unknown) => {
        for (const waiter of waiting) waiter.reject(waiter.abort?.aborted ? requestAborted() : error);
      },
    );
  }

  async #query(ids: readonly number[], abort: AbortProbe | undefined): Promise<StoredRead> {
    // By master_records' primary key alone: a row there means the master exists (its foreign
    // key cascades); masterJsonsByIds reads the masters table only for the ids without one.
    const rows = await this.read(
      abort,
      () => this.sql<StoredRecord[]>`
      SELECT ${GENERATION_ROW}::int AS master_id, generation::text AS json FROM catalogue_state
      UNION ALL
      SELECT master_id, record::text AS json FROM master_records WHERE master_id = ANY(${ids as number[]}::int[])`,
    );
    let generation = 0;
    const records: StoredRecord[] = [];
    for (const row of rows) {
      if (row.master_id === GENERATION_ROW) generation = Number(row.json);
      else records.push(row);
    }
    return { records, generation };
  }
}
