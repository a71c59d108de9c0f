/**
 * Mail outbox delivery (outbox.ts): claimed with a 2-minute lease, sent once, retried with
 * backoff from 30 s doubling to an hour, dead after 10 attempts or when it cannot be opened.
 */
import { describe, expect, it } from 'vitest';
import type { Accounts, LogRecord, MailMessage, OutboxMessage, Ports } from '../ports/index.js';
import { deliverOutboxMessage, MAX_ATTEMPTS, outboxContext, processOutbox, retryDelayMs } from './outbox.js';
import { seal } from './seal.js';

const SECRET = 'o'.repeat(64);
const NOW = Date.UTC(2026, 2, 10, 12);
const LEASE = 2 * 60 * 1000;

async function row(id: string, attempts = 0, body: object = { subject: 'Hi', text: 'Body' }, context = outboxContext(id)): Promise<OutboxMessage> {
  return {
    id,
    customer_id: `cust_${id}`,
    to: `${id}@example.com`,
    sealed: await seal(SECRET, JSON.stringify(body), context),
    attempts,
    next_attempt_at: new Date(NOW),
    created_at: new Date(NOW),
    sent_at: null,
  };
}

function portsWith(rows: OutboxMessage[], mailer: ((m: MailMessage) => Promise<void>) | null = async () => {}) {
  const claims: unknown[][] = [];
  const sent: Array<[string, Date]> = [];
  const failed: Array<[string, Date | null, string]> = [];
  const mails: MailMessage[] = [];
  const logs: LogRecord[] = [];
  const alarms: Array<[string, unknown]> = [];
  const ports = {
    clock: { now: () => NOW },
    accounts: {
      claimOutbox: async (...args: unknown[]) => {
        claims.push(args);
        return rows;
      },
      markOutboxSent: async (id: string, at: Date) => {
        sent.push([id, at]);
      },
      markOutboxFailed: async (id: string, next: Date | null, error: string) => {
        failed.push([id, next, error]);
      },
    },
    mailer: mailer
      ? {
          send: async (m: MailMessage) => {
            mails.push(m);
            await mailer(m);
          },
        }
      : undefined,
    logger: { log: (r: LogRecord) => logs.push(r) },
    alarm: { raise: (kind: string, detail: unknown) => alarms.push([kind, detail]) },
  } as unknown as Ports<Accounts>;
  return { ports, claims, sent, failed, mails, logs, alarms };
}

describe('retryDelayMs', () => {
  it('30 s, then doubling, capped at one hour', () => {
    expect([0, 1, 2, 3, 4, 7, 8, 9, 20].map(retryDelayMs)).toEqual([30_000, 30_000, 60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000]);
    expect(MAX_ATTEMPTS).toBe(10);
    expect(outboxContext('mail_1')).toBe('outbox:mail_1');
  });
});

describe('deliverOutboxMessage and processOutbox', () => {
  it('the immediate send claims that one row with a 2-minute lease, sends it opened, marks it sent', async () => {
    const r = await row('m1', 2);
    const t = portsWith([r]);
    await deliverOutboxMessage(t.ports, SECRET, 'm1');
    expect(t.claims).toEqual([[new Date(NOW), new Date(NOW + LEASE), 1, 'm1']]);
    expect(t.mails).toEqual([{ subject: 'Hi', text: 'Body', to: 'm1@example.com' }]);
    expect(t.sent).toEqual([['m1', new Date(NOW)]]);
    expect(t.failed).toEqual([]);
    expect(t.logs).toEqual([{ level: 'info', kind: 'mail.sent', outbox_id: 'm1', customer_id: 'cust_m1', attempts: 3 }]);
  });

  it('the job claims up to 50 due rows (or the batch asked) and answers how many it claimed', async () => {
    const rows = [await row('a'), await row('b')];
    const t = portsWith(rows);
    const at = new Date(NOW + 5_000);
    expect(await processOutbox(t.ports, SECRET, at)).toBe(2);
    expect(await processOutbox(t.ports, SECRET, at, 7)).toBe(2);
    expect(t.claims).toEqual([
      [at, new Date(NOW + 5_000 + LEASE), 50],
      [at, new Date(NOW + 5_000 + LEASE), 7],
    ]);
    expect(t.sent.map(([id]) => id)).toEqual(['a', 'b', 'a', 'b']);
    expect(await processOutbox(portsWith([]).ports, SECRET, at)).toBe(0);
  });

  it('a failed send is retried after the backoff, with the error logged', async () => {
    const t = portsWith([await row('m1', 2)], async () => {
      throw new Error('smtp 451');
    });
    await deliverOutboxMessage(t.ports, SECRET, 'm1');
    const next = new Date(NOW + 120_000);
    expect(t.failed).toEqual([['m1', next, 'smtp 451']]);
    expect(t.sent).toEqual([]);
    expect(t.logs).toEqual([
      { level: 'warn', kind: 'mail.retry', outbox_id: 'm1', customer_id: 'cust_m1', attempts: 3, error: 'smtp 451', next_attempt_at: next.toISOString() },
    ]);
    expect(t.alarms).toEqual([]);
    const plain = portsWith([await row('m2')], () => Promise.reject('refused'));
    await deliverOutboxMessage(plain.ports, SECRET, 'm2');
    expect(plain.failed).toEqual([['m2', new Date(NOW + 30_000), 'refused']]);
  });

  it('the tenth failed attempt is the last: dead, logged as an error, alarm raised', async () => {
    const t = portsWith([await row('m1', 9)], async () => {
      throw new Error('bounce');
    });
    await deliverOutboxMessage(t.ports, SECRET, 'm1');
    expect(t.failed).toEqual([['m1', null, 'bounce']]);
    expect(t.logs).toEqual([
      { level: 'error', kind: 'mail.dead', outbox_id: 'm1', customer_id: 'cust_m1', attempts: 10, error: 'bounce', next_attempt_at: null },
    ]);
    expect(t.alarms).toEqual([['mail.dead', { outbox_id: 'm1' }]]);
    const ninth = portsWith([await row('m2', 8)], async () => {
      throw new Error('bounce');
    });
    await deliverOutboxMessage(ninth.ports, SECRET, 'm2');
    expect(ninth.failed).toEqual([['m2', new Date(NOW + 3_600_000), 'bounce']]);
    expect(ninth.alarms).toEqual([]);
  });

  it('without a transport the row waits like a failed send', async () => {
    const t = portsWith([await row('m1')], null);
    await processOutbox(t.ports, SECRET, new Date(NOW));
    expect(t.failed).toEqual([['m1', new Date(NOW + 30_000), 'no mail transport configured']]);
    expect(t.logs[0]).toMatchObject({ level: 'warn', kind: 'mail.retry', attempts: 1 });
  });

  it('a row that cannot be opened (sealed for another row or secret) is dead at once', async () => {
    const t = portsWith([await row('m1', 0, { subject: 's', text: 't' }, outboxContext('other'))]);
    await deliverOutboxMessage(t.ports, SECRET, 'm1');
    expect(t.mails).toEqual([]);
    expect(t.failed).toEqual([['m1', null, 'sealed body cannot be opened']]);
    expect(t.logs).toEqual([{ level: 'error', kind: 'mail.dead', outbox_id: 'm1', customer_id: 'cust_m1', reason: 'unseal_failed' }]);
    expect(t.alarms).toEqual([['mail.dead', { outbox_id: 'm1' }]]);
  });
});
