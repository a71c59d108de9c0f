/**
 * POST /api/v1/stripe/webhook: 64 KB counted on the bytes (413 before any parsing), the
 * Stripe signature (400 invalid_signature), then the event's effects in one atomic store
 * call. Answers 200 {received: true} for every verified event, ignored types included;
 * the mail hand-off runs after the answer.
 */
import { applyBillingEvent } from '../../billing/apply-event.js';
import { ApiError } from '../../http/api-error.js';
import { readBodyCapped } from '../../http/body.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';

export const WEBHOOK_MAX_BYTES = 64 * 1024;

export const stripeWebhookRoute = route({
  method: 'POST',
  path: '/api/v1/stripe/webhook',
  access: 'open',
  summary: 'Stripe webhook (signed by Stripe)',
  description:
    'Checkout completion issues a key and e-mails it; invoice and subscription events move the customer between active, past_due and canceled and flip the tier.',
  tags: ['billing'],
  responses: { 200: { description: '{received: true}' } },
  errors: ['payload_too_large', 'invalid_signature', 'billing_unavailable'],
  async handler({ request, ports, config, waitUntil }) {
    const payload = await readBodyCapped(request, WEBHOOK_MAX_BYTES);
    if (!ports.billing || !config.secretKey) throw new ApiError(503, 'billing_unavailable', { message: 'Stripe is not configured on this server' });
    const signature = request.headers.get('stripe-signature');
    const event = signature ? await ports.billing.verifyWebhook(payload, signature) : null;
    if (!event) throw new ApiError(400, 'invalid_signature', { message: 'the Stripe-Signature header does not match the body' });
    await applyBillingEvent({ ports, secret: config.secretKey, baseUrl: config.baseUrl, waitUntil }, event);
    return json({ received: true }, 200, { 'cache-control': 'no-store' });
  },
});
