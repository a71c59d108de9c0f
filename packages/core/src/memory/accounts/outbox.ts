/** The mail outbox in memory (the MailOutbox slice; PostgreSQL's is accounts/outbox.ts). */
import type { MailOutbox } from '../../ports/index.js';
import type { AccountTables } from './tables.js';

export function mailOutbox(tables: AccountTables): MailOutbox {
  const { outbox } = tables;
  return {
    async claimOutbox(now, leaseUntil, limit, id) {
      const due = [...outbox.values()]
        .filter((m) => (id === undefined || m.id === id) && !m.sent_at && !m.dead && m.next_attempt_at.getTime() <= now.getTime())
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
        .slice(0, limit);
      for (const m of due) m.next_attempt_at = leaseUntil;
      return due.map(({ dead: _d, last_error: _e, ...m }) => ({ ...m }));
    },
    async markOutboxSent(id, now) {
      const m = outbox.get(id);
      if (!m) return;
      m.sent_at = now;
      m.sealed = '';
    },
    async markOutboxFailed(id, nextAttemptAt, error) {
      const m = outbox.get(id);
      if (!m) return;
      m.attempts++;
      m.last_error = error;
      if (nextAttemptAt) {
        m.next_attempt_at = nextAttemptAt;
      } else {
        m.dead = true;
        m.sealed = '';
      }
    },
  };
}
