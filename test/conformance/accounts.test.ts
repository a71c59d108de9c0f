import { createMemoryAccounts } from '@catalogue/core/memory';
import { createPostgresAccounts, migrate } from '@catalogue/postgres';
import { describeAccountsConformance } from './accounts-suite.js';
import { createPgliteDatabase, createPostgresDatabase, type TestDatabase } from './databases.js';

describeAccountsConformance('memory', async () => {
  const accounts = createMemoryAccounts();
  return {
    accounts,
    async markPastDue(id, since) {
      const customer = accounts.customers.get(id);
      if (customer) Object.assign(customer, { status: 'past_due', past_due_since: since });
    },
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
      close: () => db.drop(),
    };
  };
}

describeAccountsConformance('PostgreSQL', onDatabase(() => createPostgresDatabase()));
describeAccountsConformance('PGlite', onDatabase(createPgliteDatabase));
