/** The two e-mails the service writes: the new key after checkout, and the sign-in link. */
import type { MailMessage, TierId } from '../ports/index.js';
import { TIERS } from '../tiers.js';

export function keyIssuedMail(to: string, plaintext: string, tier: TierId, baseUrl: string): MailMessage {
  const quota = TIERS[tier].quotaPerMonth.toLocaleString('en-US');
  return {
    to,
    subject: 'Your Music Catalogue API key',
    text: [
      'Thanks for subscribing. Your API key:',
      '',
      `    ${plaintext}`,
      '',
      `Send it in the X-API-Key header. Your plan includes ${quota} calls a month.`,
      'Keep it secret: never commit or log it. This e-mail is the only copy we send; if you lose it, rotate the key in the dashboard:',
      `${baseUrl}/dashboard`,
    ].join('\n'),
  };
}

export function loginLinkMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Sign in to your Music Catalogue dashboard',
    text: ['Use this link to sign in. It works once and expires in 15 minutes:', '', link, '', 'If you did not ask for it, ignore this e-mail.'].join('\n'),
  };
}
