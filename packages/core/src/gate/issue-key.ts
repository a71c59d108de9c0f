/** Issuing a key: one place for the admin route, checkout completion and the test helper. */
import { ulid } from 'ulidx';
import type { CustomersAndKeys, Environment, KeyWithCustomer, LimitOverrides, NewKey, OverageMode, TierId } from '../ports/index.js';
import { sha256Hex } from './hash.js';
import { DISPLAY_PREFIX_LENGTH, generateApiKey } from './key-format.js';

export interface IssuedKey extends KeyWithCustomer {
  /** The plaintext: show it once, never store or log it. */
  plaintext: string;
}

/** `plaintext` is a key generated ahead (the demo keeps it on disk before it is issued). */
export function newKeyRecord(environment: Environment, now: Date, plaintext: string = generateApiKey(environment)): { plaintext: string; record: NewKey } {
  return {
    plaintext,
    record: { id: `key_${ulid()}`, hash: sha256Hex(plaintext), display_prefix: plaintext.slice(0, DISPLAY_PREFIX_LENGTH), environment, created_at: now },
  };
}

export interface NewCustomerInput {
  email: string;
  name?: string | null;
  tier: TierId;
  environment: Environment;
  overage?: OverageMode;
  limits?: LimitOverrides | null;
}

export async function issueCustomerKey(accounts: CustomersAndKeys, input: NewCustomerInput, now: Date, plaintext?: string): Promise<IssuedKey> {
  const made = newKeyRecord(input.environment, now, plaintext);
  const created = await accounts.createCustomerWithKey(
    {
      id: `cust_${ulid()}`,
      email: input.email,
      name: input.name ?? null,
      tier: input.tier,
      overage: input.overage ?? 'block',
      limits: input.limits ?? null,
      created_at: now,
    },
    made.record,
  );
  return { ...created, plaintext: made.plaintext };
}
