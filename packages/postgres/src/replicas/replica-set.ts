/**
 * The read replicas of a catalogue and which of them may serve a read now. A replica serves
 * when its last health check answered and it had replayed the WAL past the last finish() of
 * the catalogue (so a read once the process has heard of an import never sees the catalogue before it); reads
 * spread round-robin over those. None serving: the primary serves. A replica that fails a
 * read with a lost connection is taken out at once and checked again in the background.
 */
import { ApiError, type Logger } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { CatalogueGeneration } from './catalogue-generation.js';
import { parseLsn } from './lsn.js';

/** A replica that is not in recovery (promoted, or a primary named as a replica) is never behind. */
const NOT_A_STANDBY = 2n ** 64n;

export interface ReplicaMember<T> {
  readonly name: string;
  readonly sql: Sql;
  readonly target: T;
  healthy: boolean;
  /** WAL replayed as of the last check (bigint), null before the first answer. */
  replayed: bigint | null;
  checkedAt: number;
}

export interface ReplicaStatus {
  name: string;
  healthy: boolean;
  /** Behind the last finish() by this many WAL bytes (0 when past it), null when unknown. */
  behindBytes: number | null;
}

export interface ReplicaSetOptions {
  /** Health check interval while every replica is current (default 1 s). */
  checkMs?: number;
  /** Interval while a healthy replica is behind the last finish() (default 100 ms). */
  catchUpCheckMs?: number;
  /** A check slower than this takes the replica out (default 1 s). */
  checkTimeoutMs?: number;
  logger?: Logger;
}

/** A read failed because its database is away: another member may answer it. */
export function isFailover(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'database_unavailable' || error.code === 'pool_exhausted');
}

export class ReplicaSet<T> {
  readonly members: ReplicaMember<T>[];
  #next = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #closed = false;
  readonly #checkMs: number;
  readonly #catchUpMs: number;
  readonly #timeoutMs: number;

  constructor(
    replicas: Array<{ name: string; sql: Sql; target: T }>,
    private readonly primary: T,
    private readonly generation: CatalogueGeneration,
    private readonly options: ReplicaSetOptions = {},
  ) {
    this.members = replicas.map((replica) => ({ ...replica, healthy: false, replayed: null, checkedAt: 0 }));
    this.#checkMs = options.checkMs ?? 1_000;
    this.#catchUpMs = options.catchUpCheckMs ?? 100;
    this.#timeoutMs = options.checkTimeoutMs ?? 1_000;
    generation.onChange(() => this.#schedule(0));
    this.#schedule(0);
  }

  /** Runs a read on a serving replica, failing over to the next one and finally the primary. */
  async run<R>(read: (target: T) => Promise<R>): Promise<R> {
    const tried = new Set<ReplicaMember<T>>();
    for (;;) {
      const member = this.pick(tried);
      if (!member) return read(this.primary);
      try {
        return await read(member.target);
      } catch (error) {
        if (!isFailover(error)) throw error;
        tried.add(member);
        this.#takeOut(member, error);
      }
    }
  }

  /** The next serving replica not yet tried, round-robin; null when none serves. */
  pick(tried?: ReadonlySet<ReplicaMember<T>>): ReplicaMember<T> | null {
    const required = this.generation.current()?.lsn;
    // Before the primary has said which generation is current, no replica can be shown fresh.
    if (required === undefined) return null;
    const count = this.members.length;
    for (let i = 0; i < count; i++) {
      const member = this.members[(this.#next + i) % count] as ReplicaMember<T>;
      if (!member.healthy || member.replayed === null || member.replayed < required || tried?.has(member)) continue;
      this.#next = (this.#next + i + 1) % count;
      return member;
    }
    return null;
  }

  status(): ReplicaStatus[] {
    const required = this.generation.current()?.lsn ?? null;
    return this.members.map((member) => ({
      name: member.name,
      healthy: member.healthy,
      behindBytes: member.replayed === null || required === null ? null : member.replayed >= required ? 0 : Number(required - member.replayed),
    }));
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
  }

  #takeOut(member: ReplicaMember<T>, error: unknown): void {
    if (member.healthy) {
      this.options.logger?.log({ level: 'warn', kind: 'replicas.down', replica: member.name, error: error instanceof Error ? error.message : String(error) });
    }
    member.healthy = false;
  }

  #schedule(ms: number): void {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#checkAll(), ms);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  async #checkAll(): Promise<void> {
    this.#timer = null;
    await Promise.all(this.members.map((member) => this.#check(member)));
    const required = this.generation.current()?.lsn;
    const catchingUp = required !== undefined && this.members.some((m) => m.healthy && m.replayed !== null && m.replayed < required);
    this.#schedule(catchingUp ? this.#catchUpMs : this.#checkMs);
  }

  async #check(member: ReplicaMember<T>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const answer = member.sql<Array<{ standby: boolean; replayed: string | null }>>`
        SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed`.execute();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
      });
      answer.catch(() => undefined);
      const [row] = await Promise.race([answer, timeout]);
      member.replayed = row?.standby ? (parseLsn(row.replayed) ?? 0n) : NOT_A_STANDBY;
      if (!member.healthy) this.options.logger?.log({ level: 'info', kind: 'replicas.up', replica: member.name });
      member.healthy = true;
    } catch (error) {
      this.#takeOut(member, error);
    } finally {
      clearTimeout(timer);
      member.checkedAt = Date.now();
    }
  }
}
