/**
 * POST /api/dashboard/login: magic-link sign-in. Always 202 (whether the address is a
 * customer's is nobody's business), and the lookup, token and mail all run after the answer so
 * its timing tells nothing either. The link's token is single-use, valid 15 minutes, stored
 * hashed; the page of GET /api/dashboard/session (web/) trades it for the session cookie.
 * Like every state-changing dashboard route it needs the dashboard's Origin. One address gets
 * at most 5 links an hour (issue 30, 2: mail bombing): requests past that answer the same 202
 * and mail nothing, counted per address whether or not it is a customer's, so neither the answer
 * nor its timing tells the two apart.
 */
import * as v from 'valibot';
import { requireSameOrigin } from '../../billing/dashboard-session.js';
import { readFormOrJson } from '../../billing/form-body.js';
import { loginLinkMail } from '../../billing/mail-templates.js';
import { LOGIN_TOKEN_TTL_MS, newToken } from '../../billing/tokens.js';
import { ApiError } from '../../errors/api-error.js';
import { json } from '../../http/json.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { CustomersAndKeys, DashboardState, Ports } from '../../ports/index.js';
import { EmailSchema } from '../../validation/email.js';
import { detailsOf } from '../../validation/issues.js';

export const LoginRequestSchema = v.object({ email: EmailSchema });

/** Sign-in mails per address and hour. */
export const LOGIN_MAILS_PER_ADDRESS_PER_HOUR = 5;
const HOUR_MS = 3_600_000;

/**
 * Whether this address may get another link this hour. The window's subject is a hash of the
 * address (no address in a limiter key); a limiter that fails lets the mail go (fail open, as
 * every limit here does), logged.
 */
async function withinAddressCap(ports: Ports, email: string, now: number): Promise<boolean> {
  const subject = `login-mail:${ports.hasher.sha256Hex(`catalogue:login-mail:${email.toLowerCase()}`)}`;
  try {
    return (await ports.limiter.admitPublic(subject, LOGIN_MAILS_PER_ADDRESS_PER_HOUR, now, { windowMs: HOUR_MS })).allowed;
  } catch (error) {
    ports.logger.log({ level: 'warn', kind: 'ratelimit.fail_open', scope: 'login-mail', error: error instanceof Error ? error.message : String(error) });
    ports.metrics.limiterFailOpen('public');
    return true;
  }
}

async function sendLoginLinks(ports: Ports<DashboardState & CustomersAndKeys>, baseUrl: string, email: string, now: number): Promise<void> {
  if (!(await withinAddressCap(ports, email, now))) {
    ports.logger.log({ level: 'warn', kind: 'dashboard.login_capped', limit_per_hour: LOGIN_MAILS_PER_ADDRESS_PER_HOUR });
    return;
  }
  const customers = await ports.accounts.findCustomersByEmail(email);
  for (const customer of customers) {
    if (customer.status === 'canceled') continue;
    const { token, hash } = newToken();
    await ports.accounts.createLoginToken({ hash, customer_id: customer.id, expires_at: new Date(now + LOGIN_TOKEN_TTL_MS) });
    if (!ports.mailer) {
      ports.logger.log({ level: 'warn', kind: 'dashboard.login_unsent', customer_id: customer.id, reason: 'no mail transport' });
      continue;
    }
    await ports.mailer.send(loginLinkMail(customer.email, `${baseUrl}/api/dashboard/session?token=${encodeURIComponent(token)}`));
    ports.logger.log({ level: 'info', kind: 'dashboard.login_link_sent', customer_id: customer.id });
  }
}

export const dashboardLoginRoute = route({
  method: 'POST',
  path: '/api/dashboard/login',
  access: 'public',
  summary: 'E-mail a single-use sign-in link (always 202)',
  tags: ['dashboard'],
  body: { schema: LoginRequestSchema, description: 'The e-mail the subscription was bought with.', maxBytes: 2048 },
  responses: { 202: { description: 'If the address belongs to a customer, a link valid 15 minutes is on its way.' } },
  errors: ['unauthorized', 'invalid_body', 'unsupported_media_type', 'payload_too_large'],
  async handler({ request, ports, config, now, waitUntil }: WithAccounts<DashboardState & CustomersAndKeys>) {
    requireSameOrigin(request, config);
    const parsed = v.safeParse(LoginRequestSchema, await readFormOrJson(request, 2048));
    if (!parsed.success) throw new ApiError('invalid_body', { details: detailsOf(parsed.issues) });
    waitUntil(sendLoginLinks(ports, config.baseUrl, parsed.output.email, now));
    return json({ accepted: true }, 202, { 'cache-control': 'no-store' });
  },
});
