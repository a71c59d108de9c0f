/**
 * POST /api/dashboard/login: magic-link sign-in. Always 202 (whether the address is a
 * customer's is nobody's business), and the lookup, token and mail all run after the answer so
 * its timing tells nothing either. The link's token is single-use, valid 15 minutes, stored
 * hashed; GET /api/dashboard/session (web/) trades it for the session cookie.
 */
import * as v from 'valibot';
import { readFormOrJson } from '../../billing/form-body.js';
import { loginLinkMail } from '../../billing/mail-templates.js';
import { LOGIN_TOKEN_TTL_MS, newToken } from '../../billing/tokens.js';
import { ApiError } from '../../http/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { Ports } from '../../ports/index.js';
import { EmailSchema } from '../../validation/email.js';
import { detailsOf } from '../../validation/issues.js';

export const LoginRequestSchema = v.object({ email: EmailSchema });

async function sendLoginLinks(ports: Ports, baseUrl: string, email: string, now: number): Promise<void> {
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
  errors: ['invalid_body', 'unsupported_media_type', 'payload_too_large'],
  async handler({ request, ports, config, now, waitUntil }) {
    const parsed = v.safeParse(LoginRequestSchema, await readFormOrJson(request, 2048));
    if (!parsed.success) throw new ApiError(400, 'invalid_body', { details: detailsOf(parsed.issues) });
    waitUntil(sendLoginLinks(ports, config.baseUrl, parsed.output.email, now));
    return json({ accepted: true }, 202, { 'cache-control': 'no-store' });
  },
});
