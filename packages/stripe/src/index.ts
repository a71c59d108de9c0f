export { stripeBillingFromEnv } from './from-env.js';
export { createHttpMailer } from './mail/http-mailer.js';
export { createLogMailer } from './mail/log-mailer.js';
export { type MailerOptions, mailerFromTransport } from './mail/mailer-from-transport.js';
export { createSmtpMailer } from './mail/smtp-mailer.js';
export { normalizeEvent, type StripeEventLike, type TierByPrice } from './normalize-event.js';
export { createStripeBilling, type StripeBillingOptions, WEBHOOK_TOLERANCE_SECONDS } from './stripe-billing.js';
