/** Rotation and revocation from the dashboard. */
import type { Accounts } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';
import { insertKey } from './customers-and-keys.js';
import { type KeyRow, keyOf } from './rows.js';

export type KeyLifecycle = Pick<Accounts, 'rotateKey' | 'revokeKey'>;

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
  };
}
