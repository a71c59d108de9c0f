/** MAIL_TRANSPORT=smtp://user:pass@host:port (or smtps://): nodemailer, Node-only. */
import type { Mailer, MailMessage } from '@catalogue/core';
import nodemailer from 'nodemailer';

export function createSmtpMailer(url: string, from: string): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(url);
  return {
    async send(message: MailMessage) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, ...(message.html ? { html: message.html } : {}) });
    },
    close: () => transport.close(),
  };
}
