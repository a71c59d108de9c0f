/**
 * The dashboard's stored state (the DashboardState slice of Accounts): one-time reveal rows, single-use login tokens and sessions
 * (hashes only; the sealed reveal is what core gave us), and their expiry purge.
 */
import type { DashboardState, RevealRow } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';

export function dashboardState(sql: Sql, guard: QueryGuard): DashboardState {
  return {
    async takeReveals(customerId, now) {
      // DELETE … RETURNING hands each row to one caller only; expired rows go too, unreturned.
      const rows = await guard.query(
        undefined,
        () => sql<Array<RevealRow & { seq: string }>>`
        DELETE FROM reveals WHERE customer_id = ${customerId}
        RETURNING customer_id, key_id, sealed, expires_at, seq`,
      );
      return rows
        .filter((row) => row.expires_at.getTime() > now.getTime())
        .sort((a, b) => Number(b.seq) - Number(a.seq))
        .map(({ customer_id, key_id, sealed, expires_at }) => ({ customer_id, key_id, sealed, expires_at }));
    },

    async createLoginToken(token) {
      await guard.query(
        undefined,
        () => sql`
        INSERT INTO login_tokens (hash, customer_id, expires_at) VALUES (${token.hash}, ${token.customer_id}, ${token.expires_at})
        ON CONFLICT (hash) DO UPDATE SET customer_id = EXCLUDED.customer_id, expires_at = EXCLUDED.expires_at`,
      );
    },

    async consumeLoginToken(hash, now) {
      // Deleted whether or not it has expired: a token is never good twice.
      const rows = await guard.query(
        undefined,
        () => sql<Array<{ customer_id: string; expires_at: Date }>>`
        DELETE FROM login_tokens WHERE hash = ${hash} RETURNING customer_id, expires_at`,
      );
      const row = rows[0];
      return row && row.expires_at.getTime() > now.getTime() ? row.customer_id : null;
    },

    async createSession(session) {
      await guard.query(
        undefined,
        () => sql`
        INSERT INTO sessions (hash, customer_id, created_at, expires_at)
        VALUES (${session.hash}, ${session.customer_id}, ${session.created_at}, ${session.expires_at})
        ON CONFLICT (hash) DO UPDATE SET customer_id = EXCLUDED.customer_id, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
      );
    },

    async findSession(hash, now) {
      const rows = await guard.query(
        undefined,
        () => sql<Array<{ customer_id: string }>>`
        SELECT customer_id FROM sessions WHERE hash = ${hash} AND expires_at > ${now}`,
      );
      return rows[0]?.customer_id ?? null;
    },

    async deleteSession(hash) {
      await guard.query(undefined, () => sql`DELETE FROM sessions WHERE hash = ${hash}`);
    },

    async purgeExpired(now) {
      await guard.run(undefined, () =>
        sql.begin(async (tx) => {
          await tx`DELETE FROM reveals WHERE expires_at <= ${now}`;
          await tx`DELETE FROM login_tokens WHERE expires_at <= ${now}`;
          await tx`DELETE FROM sessions WHERE expires_at <= ${now}`;
        }),
      );
    },
  };
}
