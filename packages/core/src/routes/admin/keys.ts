/** POST /api/v1/admin/keys: issue a key (contract by default) with ADMIN_TOKEN; limits holds negotiated overrides. */
import * as v from 'valibot';
import { ApiError, invalidBody } from '../../errors/api-error.js';
import { issueCustomerKey } from '../../gate/issue-key.js';
import { readJsonCapped } from '../../http/body.js';
import { json } from '../../http/json.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { CustomersAndKeys } from '../../ports/index.js';
import { named } from '../../schemas/named.js';
import { TIER_IDS, TIERS } from '../../tiers.js';
import { EmailSchema } from '../../validation/email.js';
import { detailsOf } from '../../validation/issues.js';
import { storableText } from '../../validation/storable.js';

const positiveInt = (max: number) =>
  v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1, 'must be at least 1'), v.maxValue(max, `must be at most ${max}`));

export const AdminKeyRequestSchema = named(
  'AdminKeyRequest',
  v.strictObject({
    email: EmailSchema,
    name: v.optional(v.pipe(v.string(), v.maxLength(200, 'must be at most 200 characters'), storableText)),
    tier: v.optional(v.picklist(TIER_IDS, `must be one of ${TIER_IDS.join(', ')}`), 'contract_2000'),
    environment: v.optional(v.picklist(['live', 'test'], 'must be live or test'), 'live'),
    limits: v.optional(
      v.strictObject({
        quota_per_month: v.optional(positiveInt(1_000_000_000)),
        burst_per_minute: v.optional(positiveInt(1_000_000)),
        concurrency: v.optional(positiveInt(1000)),
        batch_max: v.optional(positiveInt(1000)),
      }),
    ),
  }),
);

export const AdminKeyResponseSchema = named(
  'IssuedKey',
  v.object({
    key: v.string(),
    id: v.string(),
    display_prefix: v.string(),
    customer_id: v.string(),
    tier: v.string(),
    environment: v.picklist(['live', 'test']),
  }),
);

export const adminKeysRoute = route({
  method: 'POST',
  path: '/api/v1/admin/keys',
  access: 'admin',
  summary: 'Issue a key (contract tier by default) — admin only',
  description:
    'Authorization: Bearer $ADMIN_TOKEN. limits (contract tier only) holds negotiated overrides used by the gate and its headers. The plaintext key appears only in this answer.',
  tags: ['admin'],
  body: { schema: AdminKeyRequestSchema, description: 'Customer and key to create.', maxBytes: 16 * 1024 },
  responses: { 201: { description: 'The new key: store it now, it is never shown again.', schema: AdminKeyResponseSchema } },
  errors: ['unauthorized', 'invalid_body', 'payload_too_large'],
  async handler({ request, ports, now }: WithAccounts<CustomersAndKeys>) {
    const body = await readJsonCapped(request, 16 * 1024, (reason) => invalidBody([{ path: '', message: reason }]));
    const parsed = v.safeParse(AdminKeyRequestSchema, body);
    if (!parsed.success) throw new ApiError('invalid_body', { details: detailsOf(parsed.issues) });
    const input = parsed.output;
    if (input.limits && !TIERS[input.tier].contract) {
      throw invalidBody([{ path: 'limits', message: 'limit overrides apply to the contract tier only' }]);
    }
    const issued = await issueCustomerKey(
      ports.accounts,
      { email: input.email, name: input.name ?? null, tier: input.tier, environment: input.environment, limits: input.limits ?? null },
      new Date(now),
    );
    ports.logger.log({
      level: 'info',
      kind: 'admin.key_issued',
      customer_id: issued.customer.id,
      key_id: issued.key.id,
      key_prefix: issued.key.display_prefix,
      tier: input.tier,
    });
    return json(
      {
        key: issued.plaintext,
        id: issued.key.id,
        display_prefix: issued.key.display_prefix,
        customer_id: issued.customer.id,
        tier: issued.customer.tier,
        environment: issued.key.environment,
      },
      201,
      { 'cache-control': 'no-store' },
    );
  },
});
