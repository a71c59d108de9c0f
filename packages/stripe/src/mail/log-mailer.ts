/**
 * MAIL_TRANSPORT=log: core's log mailer (keys redacted to their prefix, sign-in links only where
 * the host says the log is private), so the default needs no adapter and this one agrees with it.
 */
export { createLogMailer } from '@catalogue/core';
