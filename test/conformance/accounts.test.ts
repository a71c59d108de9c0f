import { createMemoryAccounts } from '@catalogue/core/memory';
import { createPostgresAccounts, migrate, readSearchEvents } from '@catalogue/postgres';
import { describeAccountsConformance, type OutboxInspection } from './accounts-suite.js';
import { createPgliteDatabase, createPostgresDatabase, type TestDatabase } from './databases.js';

describeAccountsConformance('memory', async () => {
  const accounts = createMemoryAccounts();
  return {
    accounts,
    async markPastDue(id, since) {
      const customer = accounts.customers.get(id);
      if (customer) Object.assign(customer, { status: 'past_due', past_due_since: since });
    },
    async inspectOutbox(id) {
      const rows = accounts.tables().outbox as Array<OutboxInspection & { id: string }>;
      const row = rows.find((r) => r.id === id);
      return row ? { sealed: row.sealed, attempts: row.attempts, sent_at: row.sent_at, dead: row.dead } : null;
    },
    searchEvents: async () => accounts.searchEvents,
    close: async () => undefined,
  };
});

function onDatabase(open: () => Promise<TestDatabase>) {
  return async () => {
    const db = await open();
    await migrate(db.sql);
    return {
      accounts: createPostgresAccounts(db.sql),
      async markPastDue(id: string, since: Date) {
        await db.sql`UPDATE customers SET status = 'past_due', past_due_since = ${since} WHERE id = ${id}`;
      },
      async inspectOutbox(id: string) {
        const [row] = await db.sql<OutboxInspection[]>`SELECT sealed, attempts, sent_at, dead FROM outbox WHERE id = ${id}`;
        return row ? { sealed: row.sealed, attempts: row.attempts, sent_at: row.sent_at, dead: row.dead } : null;
      },
      searchEvents: () => readSearchEvents(db.sql),
      close: () => db.drop(),
    };
  };
}

// Ten connections, so the concurrency cases race on separate PostgreSQL sessions.
describeAccountsConformance(
  'PostgreSQL',
  onDatabase(() => createPostgresDatabase({ max: 10 })),
);
// PGlite serves one connection: the same cases, serialized by its pool.
describeAccountsConformance('PGlite', onDatabase(createPgliteDatabase));
