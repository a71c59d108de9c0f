/**
 * POST /api/v1/stripe/webhook: 64 KB counted on the bytes (413 before any parsing), the
 * Stripe signature (400 invalid_signature), then the event's effects in one atomic store
 * call. Answers 200 {received: true} for every verified event, ignored types included;
 * the mail hand-off runs after the answer.
 */
import * as v from 'valibot';
import { applyBillingEvent } from '../../billing/apply-event.js';
import { ApiError } from '../../errors/api-error.js';
import { readBodyCapped } from '../../http/body.js';
import { json } from '../../http/json.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { BillingState, MailOutbox } from '../../ports/index.js';

export const WEBHOOK_MAX_BYTES = 64 * 1024;

/**
 * Stripe's event envelope (docs.stripe.com/api/events/object), as the documents describe the
 * body: the route never validates it by this schema, the signature decides (docs/decisions.md §4).
 * Stripe adds fields over time, so every object here is open.
 */
const STRIPE_EVENT = {
  type: 'object',
  description: 'A Stripe event, signed with the deployment’s webhook secret.',
  required: ['id', 'object', 'type', 'created', 'livemode', 'data'],
  properties: {
    id: { type: 'string', pattern: '^evt_', description: 'The event id: each is applied at most once.' },
    object: { const: 'event' },
    type: {
      type: 'string',
      description:
        'checkout.session.completed, invoice.payment_failed, invoice.payment_succeeded, invoice.paid, customer.subscription.updated and customer.subscription.deleted have effects; other types are acknowledged and ignored.',
    },
    api_version: { type: ['string', 'null'] },
    created: { type: 'integer', description: 'Unix epoch seconds.' },
    livemode: { type: 'boolean', description: 'false: a checkout issues a ck_test_ key.' },
    pending_webhooks: { type: 'integer' },
    request: { type: ['object', 'null'], additionalProperties: true },
    data: {
      type: 'object',
      required: ['object'],
      properties: { object: { type: 'object', additionalProperties: true }, previous_attributes: { type: 'object', additionalProperties: true } },
      additionalProperties: true,
    },
  },
  additionalProperties: true,
};

const STRIPE_EVENT_EXAMPLE = {
  id: 'evt_1QJ9ZvLkdIwHu7ixQm2f8Tn4',
  object: 'event',
  api_version: '2025-09-30.clover',
  created: 1795046400,
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type: 'checkout.session.completed',
  data: {
    object: {
      id: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ',
      object: 'checkout.session',
      customer: 'cus_R3xVw2kq9Lm1Ab',
      customer_details: { email: 'ops@label.example' },
      subscription: 'sub_1QJ9ZtLkdIwHu7ixd3Yh5Kp0',
      metadata: { tier: 'self_serve_99' },
      mode: 'subscription',
      status: 'complete',
    },
  },
};

const ReceivedSchema = v.object({ received: v.literal(true) });

export const stripeWebhookRoute = route({
  method: 'POST',
  path: '/api/v1/stripe/webhook',
  access: 'open',
  summary: 'Stripe webhook (signed by Stripe)',
  description:
    'Checkout completion issues a key and e-mails it; invoice and subscription events move the customer between active, past_due and canceled and flip the tier.',
  tags: ['billing'],
  foreignBody: {
    name: 'StripeEvent',
    description: 'The event, exactly as Stripe sent it (at most 64 KB).',
    schema: STRIPE_EVENT,
    example: STRIPE_EVENT_EXAMPLE,
  },
  headers: [
    {
      name: 'Stripe-Signature',
      description: 'Stripe’s signature of the body: a timestamp and HMAC-SHA256 signatures, checked within 300 s.',
      required: true,
      example: 't=1795046400,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
    },
  ],
  responses: { 200: { description: 'The event is verified and applied (or ignored, for a type without effects).', schema: ReceivedSchema } },
  errors: ['payload_too_large', 'invalid_signature', 'billing_unavailable'],
  async handler({ request, ports, config, waitUntil }: WithAccounts<BillingState & MailOutbox>) {
    const payload = await readBodyCapped(request, WEBHOOK_MAX_BYTES);
    if (!ports.billing || !config.secretKey) throw new ApiError('billing_unavailable', {}, { 'retry-after': '5' });
    const signature = request.headers.get('stripe-signature');
    const event = signature ? await ports.billing.verifyWebhook(payload, signature) : null;
    if (!event) throw new ApiError('invalid_signature');
    await applyBillingEvent({ ports, secret: config.secretKey, baseUrl: config.baseUrl, waitUntil }, event);
    return json({ received: true }, 200, { 'cache-control': 'no-store' });
  },
});
