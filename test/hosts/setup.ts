/** The fixture context of one host: keys issued through its own admin route, a demo master id. */
import { generateCatalogue } from '@catalogue/importer';
import type { Answer } from './answer.js';
import { jsonOf } from './answer.js';
import { FIXTURE_ADMIN_TOKEN, type FixtureContext, type FixtureRequest } from './fixture.js';

/** The demo catalogue is deterministic: every host on CATALOGUE_STORAGE=memory serves these rows. */
let demoMasterId: number | null = null;
export function demoMaster(): number {
  demoMasterId ??= (generateCatalogue().masters[0] as { master_id: number }).master_id;
  return demoMasterId;
}

async function issue(send: (req: FixtureRequest) => Promise<Answer>, body: Record<string, unknown>): Promise<string> {
  const answer = await send({
    method: 'POST',
    path: '/api/v1/admin/keys',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${FIXTURE_ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(`admin key issue answered ${answer.status}: ${new TextDecoder().decode(answer.body)}`);
  return (jsonOf(answer) as { key: string }).key;
}

export async function fixtureContext(send: (req: FixtureRequest) => Promise<Answer>, honoursForwardedProto: boolean): Promise<FixtureContext> {
  return {
    honoursForwardedProto,
    adminToken: FIXTURE_ADMIN_TOKEN,
    key: await issue(send, { email: 'fixture@example.com', tier: 'self_serve_299', environment: 'test' }),
    limitedKey: await issue(send, { email: 'limited@example.com', tier: 'contract_2000', limits: { burst_per_minute: 1 } }),
    masterId: demoMaster(),
  };
}
