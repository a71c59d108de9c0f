/** Rotation, revocation and creation of keys from the dashboard. */
import type { Accounts } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';
import { insertKey } from './customers-and-keys.js';
import { type KeyRow, keyOf } from './rows.js';

export type KeyLifecycle = Pick<Accounts, 'rotateKey' | 'revokeKey' | 'addKeyCapped'>;

export function keyLifecycle(sql: Sql, guard: QueryGuard): KeyLifecycle {
  return {
    async rotateKey(customerId, keyId, newKey) {
      return guard.run(undefined, () =>
        sql.begin(async (tx) => {
          // The conditional UPDATE is the check: a concurrent rotation of the same key waits on
          // the row lock, then finds it no longer active and changes nothing.
          const [old] = await tx<KeyRow[]>`
            UPDATE api_keys SET status = 'rotated'
            WHERE id = ${keyId} AND customer_id = ${customerId} AND status = 'active'
            RETURNING *`;
          if (!old) return null;
          // A duplicate hash throws here and rolls the rotation back.
          const [key] = await insertKey(tx, customerId, newKey);
          return { old: keyOf(old), key: keyOf(key as KeyRow) };
        }),
      );
    },

    async revokeKey(customerId, keyId) {
      const rows = await guard.query(
        undefined,
        () => sql<KeyRow[]>`
        UPDATE api_keys
        SET status = CASE WHEN status IN ('active', 'suspended') THEN 'revoked' ELSE status END
        WHERE id = ${keyId} AND customer_id = ${customerId}
        RETURNING *`,
      );
      return rows[0] ? keyOf(rows[0]) : null;
    },

    async addKeyCapped(customerId, newKey, maxActive) {
      return guard.run(undefined, () =>
        sql.begin(async (tx) => {
          // The customer's row lock serializes creates for one customer: the count below is
          // then the count the insert sees.
          const owner = await tx`SELECT 1 FROM customers WHERE id = ${customerId} FOR UPDATE`;
          if (owner.length === 0) throw new Error(`no customer ${customerId}`);
          const [active] = await tx<Array<{ n: number }>>`
            SELECT count(*)::int AS n FROM api_keys WHERE customer_id = ${customerId} AND status = 'active'`;
          if ((active?.n ?? 0) >= maxActive) return null;
          const [key] = await insertKey(tx, customerId, newKey);
          return keyOf(key as KeyRow);
        }),
      );
    },
  };
}
