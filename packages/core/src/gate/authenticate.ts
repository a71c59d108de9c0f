/**
 * The key gate, in the order docs/decisions.md §3 fixes: missing header → bad shape, checksum or
 * unknown hash → rotated/revoked → suspended key or customer not in good standing.
 * Shape and checksum are checked before any store read; the read itself is admission.ts's
 * (shared by concurrent requests of one key: shared-key-reads.ts).
 */
import { ApiError } from '../errors/api-error.js';
import type { Principal } from '../http/route.js';
import type { Hasher, KeyWithCustomer } from '../ports/index.js';
import { policyFor } from '../tiers.js';
import { parseApiKey } from './key-format.js';

/** Days a past_due customer keeps the grace window before keys are suspended. */
export const GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** The presented key, checked for shape and checksum without any store read, and its hash. */
export interface PresentedKey {
  hash: string;
  environment: 'live' | 'test';
}

export function presentedKey(request: Request, hasher: Hasher): PresentedKey {
  const presented = request.headers.get('x-api-key');
  if (presented === null || presented === '') {
    throw new ApiError('missing_api_key');
  }
  const parsed = parseApiKey(presented);
  if (!parsed) throw invalidKey();
  return { hash: hasher.sha256Hex(presented), environment: parsed.environment };
}

/** The caller a found key row stands for, or the 401/402 it gets (in the order of §3). */
export function principalOf(found: KeyWithCustomer | null, presented: PresentedKey): Principal {
  if (!found) throw invalidKey();
  // A store must answer for the key it was asked about. A driver that hands one query's rows
  // to another (docs/decisions.md §8) would otherwise authenticate this caller as someone else: refuse
  // with 500 (logged) rather than answer, bill or reveal another customer's data.
  if (found.key.hash !== presented.hash || found.key.customer_id !== found.customer.id) throw new AccountsMismatch();
  if (found.key.environment !== presented.environment) throw invalidKey();
  const { key, customer } = found;
  if (key.status === 'rotated' || key.status === 'revoked') {
    throw new ApiError('revoked_api_key');
  }
  if (key.status === 'suspended' || customer.status !== 'active') {
    throw new ApiError('payment_required');
  }
  return { key, customer, policy: policyFor(customer) };
}

/** The store answered a key lookup with another key's row: a fault of the store, never of the caller. */
export class AccountsMismatch extends Error {
  constructor() {
    super('the accounts store answered a key lookup with another key');
    this.name = 'AccountsMismatch';
  }
}

function invalidKey(): ApiError {
  return new ApiError('invalid_api_key');
}
