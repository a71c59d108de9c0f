/**
 * Mail outbox delivery. A row is claimed with a lease before sending, so the immediate send
 * after the webhook and the periodic job never hand the same row to the transport twice;
 * a failure is retried with exponential backoff, and after MAX_ATTEMPTS the row is dead
 * (its sealed body wiped) and the alarm raised. Bodies are opened only to be sent.
 */
import type { MailMessage, MailOutbox, OutboxMessage, Ports } from '../ports/index.js';
import { unseal } from './seal.js';

/** Long enough for one slow SMTP hand-off; a crashed worker's claim expires after it. */
const LEASE_MS = 2 * 60 * 1000;
const FIRST_RETRY_MS = 30 * 1000;
const MAX_RETRY_MS = 60 * 60 * 1000;
export const MAX_ATTEMPTS = 10;

export const outboxContext = (id: string) => `outbox:${id}`;

/** Delay before attempt `attempts + 1`: 30 s, 1 min, 2 min, … capped at 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/** Sends one row now if it is due and unclaimed (the immediate send after checkout). */
export async function deliverOutboxMessage(ports: Ports<MailOutbox>, secret: string, id: string): Promise<void> {
  const now = new Date(ports.clock.now());
  const claimed = await ports.accounts.claimOutbox(now, new Date(now.getTime() + LEASE_MS), 1, id);
  for (const message of claimed) await send(ports, secret, message);
}

/** The runJobs step: every due row, oldest first. */
export async function processOutbox(ports: Ports<MailOutbox>, secret: string, now: Date, batch = 50): Promise<number> {
  const claimed = await ports.accounts.claimOutbox(now, new Date(now.getTime() + LEASE_MS), batch);
  for (const message of claimed) await send(ports, secret, message);
  return claimed.length;
}

async function send(ports: Ports<MailOutbox>, secret: string, row: OutboxMessage): Promise<void> {
  const { accounts, logger } = ports;
  if (!ports.mailer) {
    // Without a transport the row waits; it is retried like a failed send.
    await fail(ports, row, 'no mail transport configured');
    return;
  }
  let message: MailMessage;
  try {
    const body = JSON.parse(await unseal(secret, row.sealed, outboxContext(row.id))) as Omit<MailMessage, 'to'>;
    message = { ...body, to: row.to };
  } catch {
    // A row that cannot be opened (SECRET_KEY changed) will never open: dead at once.
    await accounts.markOutboxFailed(row.id, null, 'sealed body cannot be opened');
    logger.log({ level: 'error', kind: 'mail.dead', outbox_id: row.id, customer_id: row.customer_id, reason: 'unseal_failed' });
    ports.alarm.raise('mail.dead', { outbox_id: row.id });
    return;
  }
  try {
    await ports.mailer.send(message);
  } catch (error) {
    await fail(ports, row, error instanceof Error ? error.message : String(error));
    return;
  }
  await accounts.markOutboxSent(row.id, new Date(ports.clock.now()));
  logger.log({ level: 'info', kind: 'mail.sent', outbox_id: row.id, customer_id: row.customer_id, attempts: row.attempts + 1 });
}

async function fail(ports: Ports<MailOutbox>, row: OutboxMessage, reason: string): Promise<void> {
  const attempts = row.attempts + 1;
  const now = ports.clock.now();
  const next = attempts >= MAX_ATTEMPTS ? null : new Date(now + retryDelayMs(attempts));
  await ports.accounts.markOutboxFailed(row.id, next, reason);
  const record = { outbox_id: row.id, customer_id: row.customer_id, attempts, error: reason, next_attempt_at: next?.toISOString() ?? null };
  if (next) {
    ports.logger.log({ level: 'warn', kind: 'mail.retry', ...record });
  } else {
    ports.logger.log({ level: 'error', kind: 'mail.dead', ...record });
    ports.alarm.raise('mail.dead', { outbox_id: row.id });
  }
}
