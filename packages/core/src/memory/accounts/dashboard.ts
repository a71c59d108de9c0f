/** The dashboard's stored state in memory (the DashboardState slice; PostgreSQL's is accounts/dashboard.ts). */
import type { DashboardState, RevealRow } from '../../ports/index.js';
import type { AccountTables } from './tables.js';

export function dashboardState(tables: AccountTables): DashboardState {
  const { reveals, loginTokens, sessions } = tables;
  return {
    async takeReveals(customerId, now) {
      const taken: RevealRow[] = [];
      for (const [id, row] of reveals) {
        if (row.customer_id !== customerId) continue;
        reveals.delete(id);
        if (row.expires_at.getTime() > now.getTime()) taken.push({ ...row });
      }
      return taken.reverse();
    },
    async createLoginToken(token) {
      loginTokens.set(token.hash, { ...token });
    },
    async consumeLoginToken(hash, now) {
      const token = loginTokens.get(hash);
      if (!token) return null;
      loginTokens.delete(hash);
      return token.expires_at.getTime() > now.getTime() ? token.customer_id : null;
    },
    async createSession(session) {
      sessions.set(session.hash, { ...session });
    },
    async findSession(hash, now) {
      const session = sessions.get(hash);
      return session && session.expires_at.getTime() > now.getTime() ? session.customer_id : null;
    },
    async deleteSession(hash) {
      sessions.delete(hash);
    },
    async purgeExpired(now) {
      const t = now.getTime();
      for (const [id, r] of reveals) if (r.expires_at.getTime() <= t) reveals.delete(id);
      for (const [h, l] of loginTokens) if (l.expires_at.getTime() <= t) loginTokens.delete(h);
      for (const [h, s] of sessions) if (s.expires_at.getTime() <= t) sessions.delete(h);
    },
  };
}
