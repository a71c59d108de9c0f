/**
 * POST /api/signup (form or JSON {tier, email}): creates a Stripe Checkout Session for the tier
 * and answers 303 to it; the plan page that posts here is signup-page.ts.
 */
import * as v from 'valibot';
import { readFormOrJson } from '../billing/form-body.js';
import { ApiError } from '../errors/api-error.js';
import { route } from '../http/route.js';
import { TIER_IDS, TIERS } from '../tiers.js';
import { EmailSchema } from '../validation/email.js';
import { detailsOf } from '../validation/issues.js';
import { billingUnavailablePage, OPERATOR_DETAIL, wantsHtml } from './billing-unavailable-page.js';

export const SELF_SERVE_TIERS = TIER_IDS.filter((t) => !TIERS[t].contract);

export const SignupRequestSchema = v.object({
  tier: v.picklist(SELF_SERVE_TIERS, `must be one of ${SELF_SERVE_TIERS.join(', ')}`),
  email: EmailSchema,
});

export const signupRoute = route({
  method: 'POST',
  path: '/api/signup',
  access: 'public',
  summary: 'Start a self-serve subscription: 303 to Stripe Checkout',
  description:
    'Form or JSON body {tier, email}. Answers 303 to the Checkout page. When Stripe is not configured: 503 billing_unavailable, as an HTML page to a form post or a client accepting text/html.',
  tags: ['billing'],
  body: { schema: SignupRequestSchema, description: 'The plan and the e-mail the key goes to.', maxBytes: 4096 },
  responses: { 303: { description: 'Redirect to Stripe Checkout.', headers: ['Location'] } },
  errors: ['invalid_body', 'unsupported_media_type', 'payload_too_large', 'billing_unavailable'],
  async handler({ request, ports, config }) {
    if (!ports.billing) {
      // Someone tried to buy: the operator learns what is missing from the log, the buyer reads a sentence.
      ports.logger.log({ level: 'warn', kind: 'billing.not_configured', detail: OPERATOR_DETAIL });
      // A browser posting the plan form gets a page saying why, not the JSON error.
      if (wantsHtml(request)) return billingUnavailablePage();
    }
    const parsed = v.safeParse(SignupRequestSchema, await readFormOrJson(request, 4096));
    if (!parsed.success) throw new ApiError('invalid_body', { details: detailsOf(parsed.issues) });
    if (!ports.billing) throw new ApiError('billing_unavailable', { message: 'self-serve signup is not configured on this server' });
    const checkout = await ports.billing.createCheckout({
      tier: parsed.output.tier,
      email: parsed.output.email,
      // Stripe fills {CHECKOUT_SESSION_ID} in itself.
      successUrl: `${config.baseUrl}/dashboard/welcome?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${config.baseUrl}/api/signup`,
    });
    ports.logger.log({ level: 'info', kind: 'billing.checkout_created', checkout_session_id: checkout.id, tier: parsed.output.tier });
    return new Response(null, { status: 303, headers: { location: checkout.url, 'cache-control': 'no-store' } });
  },
});
