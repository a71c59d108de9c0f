/**
 * The mail outbox (the MailOutbox slice of Accounts). A claim moves due rows' next_attempt_at to the lease end, so a row is held
 * by one worker until it is marked or the lease runs out; FOR UPDATE SKIP LOCKED lets
 * concurrent claimers pass over rows another claimer is taking instead of taking them twice.
 */
import type { MailOutbox, OutboxMessage } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';

interface OutboxRow {
  id: string;
  customer_id: string;
  recipient: string;
  sealed: string;
  attempts: number;
  next_attempt_at: Date;
  created_at: Date;
  sent_at: Date | null;
}

const messageOf = (row: OutboxRow): OutboxMessage => ({
  id: row.id,
  customer_id: row.customer_id,
  to: row.recipient,
  sealed: row.sealed,
  attempts: row.attempts,
  next_attempt_at: row.next_attempt_at,
  created_at: row.created_at,
  sent_at: row.sent_at,
});

const oldestFirst = (a: OutboxMessage, b: OutboxMessage) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function mailOutbox(sql: Sql, guard: QueryGuard): MailOutbox {
  return {
    async claimOutbox(now, leaseUntil, limit, id) {
      const rows = await guard.query(
        undefined,
        () => sql<OutboxRow[]>`
        WITH due AS (
          SELECT id FROM outbox
          WHERE sent_at IS NULL AND NOT dead AND next_attempt_at <= ${now}
            ${id === undefined ? sql`` : sql`AND id = ${id}`}
          ORDER BY created_at, id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED
        )
        UPDATE outbox o SET next_attempt_at = ${leaseUntil}
        FROM due WHERE o.id = due.id
        RETURNING o.id, o.customer_id, o.recipient, o.sealed, o.attempts, o.next_attempt_at, o.created_at, o.sent_at`,
      );
      // UPDATE … RETURNING does not keep the CTE's order.
      return rows.map(messageOf).sort(oldestFirst);
    },

    async markOutboxSent(id, now) {
      await guard.query(undefined, () => sql`UPDATE outbox SET sent_at = ${now}, sealed = '' WHERE id = ${id}`);
    },

    async markOutboxFailed(id, nextAttemptAt, error) {
      await guard.query(undefined, () =>
        nextAttemptAt
          ? sql`UPDATE outbox SET attempts = attempts + 1, last_error = ${error}, next_attempt_at = ${nextAttemptAt} WHERE id = ${id}`
          : // Dead: never retried, so the sealed body has no further use.
            sql`UPDATE outbox SET attempts = attempts + 1, last_error = ${error}, dead = true, sealed = '' WHERE id = ${id}`,
      );
    },
  };
}
