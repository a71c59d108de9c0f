import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../ports/index.js';
import { createLogMailer } from './log-mailer.js';

const KEY = `ck_live_${'a1B2'.repeat(8)}`;
const LINK = 'http://localhost:8080/api/dashboard/session?token=s3cr3t-T0ken_value';

function capture() {
  const records: LogRecord[] = [];
  return { records, logger: { log: (r: LogRecord) => records.push(r) } };
}

describe('the log mail transport', () => {
  it('prints the text with the sign-in link where the host says the log is private, keys cut to their prefix', async () => {
    const { records, logger } = capture();
    await createLogMailer(logger, { showLinks: true }).send({ to: 'a@example.com', subject: 'Sign in', text: `Your key: ${KEY}\n\n${LINK}\n` });
    const [record] = records;
    expect(record).toMatchObject({ kind: 'mail.logged', to: 'a@example.com', subject: 'Sign in', links: [LINK] });
    expect(record?.text).toContain(LINK);
    expect(record?.text).toContain(`${KEY.slice(0, 12)}…`);
    expect(JSON.stringify(records)).not.toContain(KEY);
  });

  it('withholds link tokens by default (a deployment whose log others read)', async () => {
    const { records, logger } = capture();
    await createLogMailer(logger).send({ to: 'a@example.com', subject: 'Sign in', text: `${LINK}\n${KEY}` });
    const line = JSON.stringify(records);
    expect(line).not.toContain('s3cr3t');
    expect(line).not.toContain(KEY);
    expect(records[0]?.text).toContain('session?token=(withheld)');
  });
});
