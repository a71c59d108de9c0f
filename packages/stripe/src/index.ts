export { createStripeBilling, WEBHOOK_TOLERANCE_SECONDS, type StripeBillingOptions } from './stripe-billing.js';
export { stripeBillingFromEnv } from './from-env.js';
export { normalizeEvent, type StripeEventLike, type TierByPrice } from './normalize-event.js';
export { mailerFromTransport, type MailerOptions } from './mail/mailer-from-transport.js';
export { createSmtpMailer } from './mail/smtp-mailer.js';
export { createHttpMailer } from './mail/http-mailer.js';
export { createLogMailer } from './mail/log-mailer.js';
