/**
 * MAIL_TRANSPORT=smtp://user:pass@host:port (or smtps://): nodemailer, Node-only. nodemailer is
 * an optional peer of this package, imported on the first message, so the Billing port and
 * the other transports never load it.
 */
import type { Mailer, MailMessage } from '@catalogue/core';
import type { Transporter } from 'nodemailer';

async function smtpTransport(url: string): Promise<Transporter> {
  let nodemailer: typeof import('nodemailer');
  try {
    nodemailer = (await import('nodemailer')).default;
  } catch (error) {
    throw new Error('MAIL_TRANSPORT=smtp:// needs nodemailer, an optional peer dependency of @catalogue/stripe: npm install nodemailer', { cause: error });
  }
  return nodemailer.createTransport(url);
}

export function createSmtpMailer(url: string, from: string): Mailer & { close(): void } {
  let transport: Promise<Transporter> | null = null;
  return {
    async send(message: MailMessage) {
      transport ??= smtpTransport(url);
      await (await transport).sendMail({ from, to: message.to, subject: message.subject, text: message.text, ...(message.html ? { html: message.html } : {}) });
    },
    close: () => {
      void transport?.then((t) => t.close()).catch(() => {});
    },
  };
}
