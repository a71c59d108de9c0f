/** MAIL_TRANSPORT=https://…: each message as a JSON POST (a mail API or a relay of your own). */
import type { Mailer, MailMessage } from '@catalogue/core';

export function createHttpMailer(url: string, from: string, fetchImpl: typeof fetch = fetch): Mailer {
  const target = new URL(url);
  // Credentials in the URL become a Basic header instead of travelling in the request line.
  const auth = target.username ? `Basic ${btoa(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`)}` : null;
  target.username = '';
  target.password = '';
  return {
    async send(message: MailMessage) {
      const response = await fetchImpl(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ from, to: message.to, subject: message.subject, text: message.text, html: message.html }),
        signal: AbortSignal.timeout(10_000),
      });
      // The body may echo the message (with a key in it): never put it in the error.
      if (!response.ok) throw new Error(`mail endpoint answered ${response.status}`);
      await response.body?.cancel();
    },
  };
}
