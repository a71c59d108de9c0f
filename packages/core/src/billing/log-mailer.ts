/**
 * MAIL_TRANSPORT=log, the default: each e-mail becomes one log line with its text, API keys
 * redacted to their 12-character display prefix (docs/decisions.md §3: a plaintext key is never
 * logged). Sign-in links are printed where the operator is the only reader of the log — the
 * embedded default and the memory demo, the host decides (`showLinks`) — so a local user can
 * sign in to the dashboard (issue 16 item 9); elsewhere their token is withheld, since a link
 * signs in whoever reads it for 15 minutes. Pure: it only talks to the Logger port.
 */
import type { Mailer } from '../ports/billing.js';
import type { Logger } from '../ports/runtime.js';

export interface LogMailerOptions {
  /** Print sign-in links whole (a local deployment); otherwise their token is withheld. */
  showLinks?: boolean;
}

const KEY = /ck_(?:live|test)_[0-9A-Za-z]{32}/g;
const LINK_TOKEN = /([?&]token=)[^\s&#]+/g;
const URL = /https?:\/\/[^\s<>"]+/g;

/** The text as it may be logged: keys cut to their display prefix, link tokens withheld unless shown. */
export function redactMailText(text: string, showLinks: boolean): string {
  const keysRedacted = text.replace(KEY, (key) => `${key.slice(0, 12)}… (redacted: the full key is in the e-mail only)`);
  return showLinks ? keysRedacted : keysRedacted.replace(LINK_TOKEN, '$1(withheld)');
}

export function createLogMailer(logger: Logger, options: LogMailerOptions = {}): Mailer {
  const showLinks = options.showLinks === true;
  return {
    async send(message) {
      const text = redactMailText(message.text, showLinks);
      logger.log({ level: 'info', kind: 'mail.logged', to: message.to, subject: message.subject, text, links: text.match(URL) ?? [] });
    },
  };
}
