/**
 * GET /api/dashboard/keys: the signed-in customer's keys by display prefix only, plus, on the
 * first load after checkout, the one-time reveal.
 */
import { revealContext } from '../../billing/apply-event.js';
import { sessionCustomer } from '../../billing/dashboard-session.js';
import { unseal } from '../../billing/seal.js';
import { json } from '../../http/json.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { CustomersAndKeys, DashboardState } from '../../ports/index.js';
import { TIERS } from '../../tiers.js';
import { keyView, NO_STORE } from './dashboard-key.js';

export const dashboardKeysRoute = route({
  method: 'GET',
  path: '/api/dashboard/keys',
  access: 'open',
  summary: "The signed-in customer's keys, by display prefix",
  description: 'revealed holds a key issued at checkout that was not shown yet: it is returned once, then deleted.',
  tags: ['dashboard'],
  responses: {
    200: {
      description:
        '{customer: {email, tier, plan: {name, price_usd_per_month}, status}, keys: [{id, display_prefix, environment, status, created_at}], revealed: [{id, key}]}',
    },
  },
  errors: ['unauthorized'],
  async handler({ request, ports, config, now }: WithAccounts<DashboardState & CustomersAndKeys>) {
    const customer = await sessionCustomer(request, ports, now, config);
    const revealed: Array<{ id: string; key: string }> = [];
    if (config.secretKey) {
      for (const row of await ports.accounts.takeReveals(customer.id, new Date(now))) {
        revealed.push({ id: row.key_id, key: await unseal(config.secretKey, row.sealed, revealContext(customer.id, row.key_id)) });
      }
    }
    const keys = (await ports.accounts.listKeys(customer.id)).sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1));
    const plan = { name: TIERS[customer.tier].name, price_usd_per_month: TIERS[customer.tier].priceUsdPerMonth };
    return json({ customer: { email: customer.email, tier: customer.tier, plan, status: customer.status }, keys: keys.map(keyView), revealed }, 200, NO_STORE);
  },
});
