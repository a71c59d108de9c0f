/** A real SMTP server (smtp-server) that keeps what it receives, decoded enough to read links and keys. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The text part, with quoted-printable undone. */
  text: string;
}

export interface SmtpInbox {
  url: string;
  mails: ReceivedMail[];
  /** Resolves when `count` mails to `to` arrived. */
  waitFor(to: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parse(raw: string, to: string[]): ReceivedMail {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const subject = head.match(/^Subject: (.*)$/m)?.[1] ?? '';
  let body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) body = decodeQuotedPrintable(body);
  if (/Content-Transfer-Encoding: base64/i.test(head)) body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { to, subject, text: body };
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        for (const w of waiters) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(to, count = 1, timeoutMs = 10_000) {
      const mine = () => mails.filter((m) => m.to.includes(to));
      return new Promise((resolve, reject) => {
        const check = () => {
          if (mine().length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(mine());
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited for ${count} mail(s) to ${to}, got ${mine().length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
