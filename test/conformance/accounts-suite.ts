/**
 * Conformance assertions for any Accounts implementation: memory, PostgreSQL and PGlite run
 * the same cases. Each group gets a fresh store, so outbox claims and lookups see only the
 * rows the group made. Concurrency cases fire the calls together; on PostgreSQL they race on
 * separate connections, which is what the transactions and row locks must survive.
 */
import { createHash } from 'node:crypto';
import {
  type Accounts,
  type CheckoutCompletion,
  type Environment,
  type NewKey,
  type OverageReport,
  type Ports,
  reportOverage,
  type SearchEvent,
  TIERS,
} from '@catalogue/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** What the suite may read beside the port: stored rows the port never hands back. */
export interface OutboxInspection {
  sealed: string;
  attempts: number;
  sent_at: Date | null;
  dead: boolean;
}

export interface BuiltAccounts {
  accounts: Accounts;
  /** Marks a customer past_due since `since` without a billing event (admin-issued customers). */
  markPastDue(customerId: string, since: Date): Promise<void>;
  /** The stored outbox row, including sent/dead rows that claimOutbox no longer returns. */
  inspectOutbox(id: string): Promise<OutboxInspection | null>;
  /** Stored search events in arrival order. */
  searchEvents(): Promise<SearchEvent[]>;
  close(): Promise<void>;
}

const created = new Date('2026-01-02T03:04:05.000Z');
const at = (iso: string) => new Date(iso);
const hashOf = (tag: string) => createHash('sha256').update(tag).digest('hex');
const key = (id: string, hash: string, environment: 'live' | 'test' = 'live'): NewKey => ({
  id,
  hash,
  display_prefix: `ck_${environment}_abcd`,
  environment,
  created_at: created,
});
const WEEK = 7 * 86_400_000;

/** Every method of `accounts`, bound to it (a spread of a class instance would lose them). */
function bound(accounts: Accounts): Accounts {
  const methods: Record<string, unknown> = {};
  let proto: object | null = accounts;
  while (proto && proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value = (accounts as unknown as Record<string, unknown>)[name];
      if (typeof value === 'function' && name !== 'constructor' && !(name in methods)) methods[name] = value.bind(accounts);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return methods as unknown as Accounts;
}

/** A checkout completion whose ids all derive from `tag`. */
function checkout(tag: string, overrides: Partial<CheckoutCompletion> = {}): CheckoutCompletion {
  return {
    eventId: `evt_${tag}`,
    eventCreated: at('2026-03-01T00:00:00Z'),
    checkoutSessionId: `cs_${tag}`,
    stripeCustomerId: `cus_${tag}`,
    stripeSubscriptionId: `sub_${tag}`,
    customer: { id: `cust_${tag}`, email: `${tag}@example.com`, name: null, tier: 'self_serve_49', created_at: created },
    key: key(`key_${tag}`, hashOf(tag)),
    reveal: { sealed: `sealed-reveal-${tag}`, expires_at: at('2026-03-02T00:00:00Z') },
    mail: { id: `mail_${tag}`, to: `${tag}@example.com`, sealed: `sealed-mail-${tag}`, created_at: at('2026-03-01T00:00:00Z') },
    ...overrides,
  };
}

const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort();

export function describeAccountsConformance(name: string, build: () => Promise<BuiltAccounts>): void {
  /** A describe block with its own fresh store. */
  function group(title: string, body: (store: () => BuiltAccounts) => void): void {
    describe(title, () => {
      let built: BuiltAccounts | undefined;
      beforeAll(async () => {
        built = await build();
      });
      afterAll(async () => {
        await built?.close();
      });
      body(() => built as BuiltAccounts);
    });
  }

  describe(`Accounts conformance: ${name}`, () => {
    group('customers, keys, grace and usage', (store) => {
      it('creates a customer with its key and finds it by hash', async () => {
        const { accounts } = store();
        const made = await accounts.createCustomerWithKey(
          { id: 'cust_1', email: 'a@example.com', name: 'A', tier: 'contract_2000', limits: { batch_max: 250 }, created_at: created },
          key('key_1', 'a'.repeat(64)),
        );
        expect(made.customer).toEqual({
          id: 'cust_1',
          email: 'a@example.com',
          name: 'A',
          tier: 'contract_2000',
          status: 'active',
          overage: 'block',
          limits: { batch_max: 250 },
          past_due_since: null,
          created_at: created,
          stripe_customer_id: null,
        });
        expect(made.key).toEqual({
          id: 'key_1',
          customer_id: 'cust_1',
          hash: 'a'.repeat(64),
          display_prefix: 'ck_live_abcd',
          environment: 'live',
          status: 'active',
          created_at: created,
        });
        expect(await accounts.findKeyByHash('a'.repeat(64))).toEqual(made);
        expect(await accounts.findKeyByHash('b'.repeat(64))).toBeNull();
        expect(await accounts.findKeyById('key_1')).toEqual(made);
        expect(await accounts.findKeyById('key_nope')).toBeNull();
        expect(await accounts.getCustomer('cust_1')).toEqual(made.customer);
        expect(await accounts.getCustomer('cust_nope')).toBeNull();
      });

      it('adds keys, lists them, and refuses a duplicate hash or an unknown customer', async () => {
        const { accounts } = store();
        const second = await accounts.addKey('cust_1', key('key_2', 'c'.repeat(64), 'test'));
        expect(second).toMatchObject({ id: 'key_2', customer_id: 'cust_1', environment: 'test', status: 'active' });
        expect((await accounts.listKeys('cust_1')).map((k) => k.id).sort()).toEqual(['key_1', 'key_2']);
        await expect(accounts.addKey('cust_1', key('key_3', 'c'.repeat(64)))).rejects.toThrow();
        await expect(accounts.addKey('cust_missing', key('key_4', 'd'.repeat(64)))).rejects.toThrow();
        expect(await accounts.listKeys('cust_missing')).toEqual([]);
      });

      it('creates a key under a cap of active keys, counted at the insert even when creates race', async () => {
        const { accounts } = store();
        await accounts.createCustomerWithKey(
          { id: 'cust_cap', email: 'cap@example.com', name: null, tier: 'self_serve_49', created_at: created },
          key('key_cap_0', hashOf('cap-0')),
        );
        await accounts.revokeKey('cust_cap', 'key_cap_0');
        // Eight creates at once against a cap of 3: exactly three land, the others change nothing.
        const made = await Promise.all(
          Array.from({ length: 8 }, (_, i) => accounts.addKeyCapped('cust_cap', key(`key_cap_${i + 1}`, hashOf(`cap-${i + 1}`), 'test'), 3)),
        );
        expect(made.filter((k) => k !== null)).toHaveLength(3);
        expect(made.find((k) => k !== null)).toMatchObject({ customer_id: 'cust_cap', environment: 'test', status: 'active' });
        const keys = await accounts.listKeys('cust_cap');
        expect(keys.filter((k) => k.status === 'active')).toHaveLength(3);
        expect(keys).toHaveLength(4); // the revoked one does not count toward the cap
        await expect(accounts.addKeyCapped('cust_missing', key('key_cap_x', hashOf('cap-x')), 3)).rejects.toThrow();
      });

      it('suspends active keys once the grace window has ended', async () => {
        const { accounts, markPastDue } = store();
        await accounts.createCustomerWithKey(
          { id: 'cust_2', email: 'b@example.com', name: null, tier: 'self_serve_49', created_at: created },
          key('key_5', 'e'.repeat(64)),
        );
        await markPastDue('cust_2', new Date('2026-03-01T00:00:00Z'));
        expect(await accounts.suspendExpiredGrace(new Date('2026-03-07T23:59:59Z'), WEEK)).toBe(0);
        expect(await accounts.suspendExpiredGrace(new Date('2026-03-08T00:00:00Z'), WEEK)).toBe(1);
        expect((await accounts.findKeyByHash('e'.repeat(64)))?.key.status).toBe('suspended');
        expect((await accounts.findKeyByHash('a'.repeat(64)))?.key.status).toBe('active');
      });

      it('adds durable monthly usage per customer, environment and month', async () => {
        const { accounts } = store();
        await accounts.addUsage('cust_1', 'live', '2026-06', 5);
        await accounts.addUsage('cust_1', 'live', '2026-06', 7);
        await accounts.addUsage('cust_1', 'test', '2026-06', 1);
        expect(await accounts.getUsage('cust_1', 'live', '2026-06')).toBe(12);
        expect(await accounts.getUsage('cust_1', 'test', '2026-06')).toBe(1);
        expect(await accounts.getUsage('cust_1', 'live', '2026-07')).toBe(0);
      });

      it('counts durable usage per UTC day too, a write after the month on its last day', async () => {
        const { accounts } = store();
        await accounts.addUsage('cust_1', 'live', '2026-04', 5, new Date('2026-04-03T10:00:00Z'));
        await accounts.addUsage('cust_1', 'live', '2026-04', 2, new Date('2026-04-03T23:59:59Z'));
        await accounts.addUsage('cust_1', 'live', '2026-04', 4, new Date('2026-04-17T00:00:00Z'));
        // The last flush of April runs just after midnight on May 1st.
        await accounts.addUsage('cust_1', 'live', '2026-04', 1, new Date('2026-05-01T00:00:30Z'));
        await accounts.addUsage('cust_1', 'test', '2026-04', 9, new Date('2026-04-03T10:00:00Z'));
        expect(await accounts.getDailyUsage('cust_1', 'live', '2026-04')).toEqual([
          { day: '2026-04-03', count: 7 },
          { day: '2026-04-17', count: 4 },
          { day: '2026-04-30', count: 1 },
        ]);
        expect(await accounts.getUsage('cust_1', 'live', '2026-04')).toBe(12);
        expect(await accounts.getDailyUsage('cust_1', 'test', '2026-04')).toEqual([{ day: '2026-04-03', count: 9 }]);
        expect(await accounts.getDailyUsage('cust_1', 'live', '2026-05')).toEqual([]);
      });

      it('flushes a shared counter range once per generation, whoever repeats it, and says how far each generation is durable', async () => {
        const { accounts } = store();
        const at = new Date('2026-08-04T12:00:00Z');
        const range = (generation: string, from: number, upto: number) => ({
          customerId: 'cust_1',
          environment: 'live' as const,
          month: '2026-08',
          generation,
          from,
          upto,
          at,
        });
        expect(await accounts.getUsageFlushed('cust_1', 'live', '2026-08', 'g1')).toBeNull();
        // The counter was seeded at 100 (durable already) and counted to 130.
        await accounts.addUsage('cust_1', 'live', '2026-08', 100, at);
        expect(await accounts.flushUsage(range('g1', 100, 130))).toBe(30);
        // The same range again (its flusher died before telling Redis): nothing twice.
        expect(await accounts.flushUsage(range('g1', 100, 130))).toBe(0);
        // Concurrent repeats of the next range: one of them adds it.
        const repeats = await Promise.all(Array.from({ length: 8 }, () => accounts.flushUsage(range('g1', 130, 150))));
        expect(repeats.sort((a, b) => b - a)).toEqual([20, 0, 0, 0, 0, 0, 0, 0]);
        expect(await accounts.getUsageFlushed('cust_1', 'live', '2026-08', 'g1')).toBe(150);
        // A range that overlaps what is durable adds only the rest.
        expect(await accounts.flushUsage(range('g1', 140, 155))).toBe(5);
        // Redis restarted: a new generation seeded from the durable 155 counts on from there.
        expect(await accounts.flushUsage(range('g2', 155, 160))).toBe(5);
        expect(await accounts.getUsage('cust_1', 'live', '2026-08')).toBe(160);
        expect(await accounts.getDailyUsage('cust_1', 'live', '2026-08')).toEqual([{ day: '2026-08-04', count: 160 }]);
        expect(await accounts.getUsageFlushed('cust_1', 'live', '2026-08', 'g1')).toBe(155);
        expect(await accounts.getUsageFlushed('cust_1', 'live', '2026-08', 'g2')).toBe(160);
        expect(await accounts.getUsageFlushed('cust_1', 'test', '2026-08', 'g2')).toBeNull();
      });

      it('adds calls one by one by their places, which later flushes of their range skip', async () => {
        const { accounts } = store();
        const at = new Date('2026-09-02T12:00:00Z');
        const ids = { customerId: 'cust_1', environment: 'live' as const, month: '2026-09', at };
        // g1 is durable up to 10; an instance stops while Redis is down holding its calls 9, 11, 12 and 15.
        expect(await accounts.flushUsage({ ...ids, generation: 'g1', from: 0, upto: 10 })).toBe(10);
        expect(await accounts.addUsageDirect({ ...ids, generation: 'g1', positions: [9, 11, 12, 15] })).toBe(3);
        // Written twice (a retried stop): nothing twice.
        expect(await accounts.addUsageDirect({ ...ids, generation: 'g1', positions: [11, 12, 15] })).toBe(0);
        expect(await accounts.getUsage('cust_1', 'live', '2026-09')).toBe(13);
        // Redis came back with its data: the flush of (10, 20] adds the 7 calls of other instances.
        expect(await accounts.flushUsage({ ...ids, generation: 'g1', from: 10, upto: 20 })).toBe(7);
        expect(await accounts.getUsage('cust_1', 'live', '2026-09')).toBe(20);
        // Places a flush has covered are not added again; a generation without flushes takes them all.
        expect(await accounts.addUsageDirect({ ...ids, generation: 'g1', positions: [18, 21] })).toBe(1);
        expect(await accounts.addUsageDirect({ ...ids, generation: 'g2', positions: [3, 4] })).toBe(2);
        expect(await accounts.getUsage('cust_1', 'live', '2026-09')).toBe(23);
        expect(await accounts.getDailyUsage('cust_1', 'live', '2026-09')).toEqual([{ day: '2026-09-02', count: 23 }]);
      });
    });

    group('checkout completion', (store) => {
      it('creates the active customer with Stripe ids, its key, the sealed reveal and the due outbox row', async () => {
        const { accounts, inspectOutbox } = store();
        const input = checkout('alice');
        const outcome = await accounts.completeCheckout(input);
        expect(outcome).toEqual({
          outcome: 'applied',
          mailId: 'mail_alice',
          customer: {
            id: 'cust_alice',
            email: 'alice@example.com',
            name: null,
            tier: 'self_serve_49',
            status: 'active',
            overage: 'block',
            limits: null,
            past_due_since: null,
            created_at: created,
            stripe_customer_id: 'cus_alice',
          },
          key: {
            id: 'key_alice',
            customer_id: 'cust_alice',
            hash: hashOf('alice'),
            display_prefix: 'ck_live_abcd',
            environment: 'live',
            status: 'active',
            created_at: created,
          },
        });
        if (outcome.outcome !== 'applied') throw new Error('not applied');
        expect(await accounts.findKeyByHash(hashOf('alice'))).toEqual({ key: outcome.key, customer: outcome.customer });
        expect(await accounts.findCustomerByCheckoutSession('cs_alice')).toEqual(outcome.customer);
        expect(await inspectOutbox('mail_alice')).toEqual({ sealed: 'sealed-mail-alice', attempts: 0, sent_at: null, dead: false });
        // Due now: the first claim at its creation time takes it.
        expect(await accounts.claimOutbox(input.mail.created_at, at('2026-03-01T00:01:00Z'), 10, 'mail_alice')).toEqual([
          {
            id: 'mail_alice',
            customer_id: 'cust_alice',
            to: 'alice@example.com',
            sealed: 'sealed-mail-alice',
            attempts: 0,
            next_attempt_at: at('2026-03-01T00:01:00Z'),
            created_at: input.mail.created_at,
            sent_at: null,
          },
        ]);
        expect(await accounts.takeReveals('cust_alice', at('2026-03-01T01:00:00Z'))).toEqual([
          { customer_id: 'cust_alice', key_id: 'key_alice', sealed: 'sealed-reveal-alice', expires_at: input.reveal.expires_at },
        ]);
      });

      it('records the last billing event time: an older change of the new customer is stale', async () => {
        const { accounts } = store();
        expect(
          await accounts.applyBillingChange({
            eventId: 'evt_alice_old',
            eventCreated: at('2026-02-28T23:59:59Z'),
            stripeCustomerId: 'cus_alice',
            status: 'past_due',
          }),
        ).toBe('stale');
        expect((await accounts.getCustomer('cust_alice'))?.status).toBe('active');
      });

      it('answers duplicate_event for a recorded event id and changes nothing', async () => {
        const { accounts } = store();
        const again = checkout('alice', {
          checkoutSessionId: 'cs_other',
          customer: { ...checkout('alice').customer, id: 'cust_other' },
          key: key('key_other', hashOf('other')),
        });
        expect(await accounts.completeCheckout(again)).toEqual({ outcome: 'duplicate_event' });
        expect(await accounts.getCustomer('cust_other')).toBeNull();
        expect(await accounts.findCustomerByCheckoutSession('cs_other')).toBeNull();
      });

      it('answers duplicate_session when the session already has a customer, and records the event id', async () => {
        const { accounts, inspectOutbox } = store();
        const second = checkout('alice', {
          eventId: 'evt_alice_2',
          customer: { ...checkout('alice').customer, id: 'cust_alice_2' },
          key: key('key_alice_2', hashOf('alice2')),
          mail: { ...checkout('alice').mail, id: 'mail_alice_2' },
        });
        expect(await accounts.completeCheckout(second)).toEqual({ outcome: 'duplicate_session' });
        expect(await accounts.getCustomer('cust_alice_2')).toBeNull();
        expect(await accounts.findKeyByHash(hashOf('alice2'))).toBeNull();
        expect(await inspectOutbox('mail_alice_2')).toBeNull();
        // The id is recorded: delivered again, it is a duplicate event.
        expect(await accounts.completeCheckout(second)).toEqual({ outcome: 'duplicate_event' });
      });

      it('is all or nothing: a failure midway records neither the event, the customer, nor the mail', async () => {
        const { accounts, inspectOutbox } = store();
        // The key hash collides with alice's key, so the insert of the key fails after the customer's.
        const clash = checkout('bob', { key: key('key_bob', hashOf('alice')) });
        await expect(accounts.completeCheckout(clash)).rejects.toThrow();
        expect(await accounts.getCustomer('cust_bob')).toBeNull();
        expect(await accounts.findCustomerByCheckoutSession('cs_bob')).toBeNull();
        expect(await inspectOutbox('mail_bob')).toBeNull();
        expect(await accounts.takeReveals('cust_bob', at('2026-03-01T01:00:00Z'))).toEqual([]);
        // Nothing recorded: Stripe's retry of the same event id succeeds.
        expect((await accounts.completeCheckout(checkout('bob'))).outcome).toBe('applied');
      });

      it('20 concurrent deliveries of one event create exactly one customer, key, reveal and outbox row', async () => {
        const { accounts, inspectOutbox } = store();
        const input = checkout('carol');
        const outcomes = await Promise.all(Array.from({ length: 20 }, () => accounts.completeCheckout(input)));
        expect(outcomes.filter((o) => o.outcome === 'applied')).toHaveLength(1);
        expect(outcomes.filter((o) => o.outcome === 'duplicate_event')).toHaveLength(19);
        expect(ids(await accounts.findCustomersByEmail('carol@example.com'))).toEqual(['cust_carol']);
        expect(ids(await accounts.listKeys('cust_carol'))).toEqual(['key_carol']);
        expect(await inspectOutbox('mail_carol')).toMatchObject({ attempts: 0, sent_at: null });
        expect(await accounts.claimOutbox(at('2026-03-01T00:00:00Z'), at('2026-03-01T00:01:00Z'), 100, 'mail_carol')).toHaveLength(1);
        expect(await accounts.takeReveals('cust_carol', at('2026-03-01T01:00:00Z'))).toHaveLength(1);
      });

      it('concurrent completions of one session under different event ids create one customer', async () => {
        const { accounts } = store();
        const base = checkout('dave');
        const outcomes = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            accounts.completeCheckout({
              ...base,
              eventId: `evt_dave_${i}`,
              customer: { ...base.customer, id: `cust_dave_${i}` },
              key: key(`key_dave_${i}`, hashOf(`dave${i}`)),
              mail: { ...base.mail, id: `mail_dave_${i}` },
            }),
          ),
        );
        expect(outcomes.filter((o) => o.outcome === 'applied')).toHaveLength(1);
        expect(outcomes.filter((o) => o.outcome === 'duplicate_session')).toHaveLength(9);
        expect(await accounts.findCustomersByEmail('dave@example.com')).toHaveLength(1);
        // Every one of the ten event ids was recorded.
        const redelivered = await Promise.all(Array.from({ length: 10 }, (_, i) => accounts.completeCheckout({ ...base, eventId: `evt_dave_${i}` })));
        expect(redelivered.every((o) => o.outcome === 'duplicate_event')).toBe(true);
      });
    });

    group('billing changes', (store) => {
      const T = (minute: number) => new Date(Date.UTC(2026, 2, 1, 0, minute));
      let n = 0;
      const change = (
        status: 'active' | 'past_due' | 'canceled' | undefined,
        minute: number,
        extra: { tier?: 'self_serve_99'; stripeCustomerId?: string; eventId?: string } = {},
      ) => ({
        eventId: extra.eventId ?? `evt_change_${++n}`,
        eventCreated: T(minute),
        stripeCustomerId: extra.stripeCustomerId ?? 'cus_erin',
        ...(status ? { status } : {}),
        ...(extra.tier ? { tier: extra.tier } : {}),
      });

      beforeAll(async () => {
        await store().accounts.completeCheckout(checkout('erin', { eventCreated: T(0) }));
      });

      it('unknown_customer records nothing: the same event id applies once the customer exists', async () => {
        const { accounts } = store();
        expect(await accounts.applyBillingChange(change('past_due', 1, { stripeCustomerId: 'cus_nobody', eventId: 'evt_early' }))).toBe('unknown_customer');
        expect(await accounts.applyBillingChange(change(undefined, 1, { eventId: 'evt_early' }))).toBe('applied');
        expect(await accounts.applyBillingChange(change(undefined, 1, { eventId: 'evt_early' }))).toBe('duplicate_event');
      });

      it('past_due starts the grace window once; a later past_due keeps its start', async () => {
        const { accounts } = store();
        expect(await accounts.applyBillingChange(change('past_due', 10))).toBe('applied');
        expect(await accounts.applyBillingChange(change('past_due', 20))).toBe('applied');
        expect(await accounts.getCustomer('cust_erin')).toMatchObject({ status: 'past_due', past_due_since: T(10) });
      });

      it('a change older than the last applied one is stale: recorded, nothing else changes', async () => {
        const { accounts } = store();
        expect(await accounts.applyBillingChange(change('active', 15, { eventId: 'evt_stale', tier: 'self_serve_99' }))).toBe('stale');
        expect(await accounts.getCustomer('cust_erin')).toMatchObject({ status: 'past_due', past_due_since: T(10), tier: 'self_serve_49' });
        expect(await accounts.applyBillingChange(change('active', 30, { eventId: 'evt_stale' }))).toBe('duplicate_event');
        expect((await accounts.getCustomer('cust_erin'))?.status).toBe('past_due');
      });

      it('active clears the grace window and reactivates suspended keys only; tier is set when given', async () => {
        const { accounts } = store();
        await accounts.addKey('cust_erin', key('key_erin_revoked', hashOf('erin-revoked')));
        await accounts.revokeKey('cust_erin', 'key_erin_revoked');
        expect(await accounts.suspendExpiredGrace(new Date(T(10).getTime() + WEEK), WEEK)).toBe(1);
        expect((await accounts.findKeyByHash(hashOf('erin')))?.key.status).toBe('suspended');
        expect(await accounts.applyBillingChange(change('active', 40, { tier: 'self_serve_99' }))).toBe('applied');
        expect(await accounts.getCustomer('cust_erin')).toMatchObject({ status: 'active', past_due_since: null, tier: 'self_serve_99' });
        const statuses = Object.fromEntries((await accounts.listKeys('cust_erin')).map((k) => [k.id, k.status]));
        expect(statuses).toEqual({ key_erin: 'active', key_erin_revoked: 'revoked' });
      });

      it('a change without status keeps the status; canceled just sets it', async () => {
        const { accounts } = store();
        expect(await accounts.applyBillingChange(change(undefined, 50))).toBe('applied');
        expect(await accounts.getCustomer('cust_erin')).toMatchObject({ status: 'active', tier: 'self_serve_99' });
        expect(await accounts.applyBillingChange(change('canceled', 60))).toBe('applied');
        expect(await accounts.getCustomer('cust_erin')).toMatchObject({ status: 'canceled', past_due_since: null, tier: 'self_serve_99' });
        expect((await accounts.findKeyByHash(hashOf('erin')))?.key.status).toBe('active');
      });

      it('concurrent deliveries of one change apply it once', async () => {
        const { accounts } = store();
        const once = change('past_due', 70, { eventId: 'evt_concurrent' });
        const outcomes = await Promise.all(Array.from({ length: 10 }, () => accounts.applyBillingChange(once)));
        expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
        expect(outcomes.filter((o) => o === 'duplicate_event')).toHaveLength(9);
        expect(await accounts.getCustomer('cust_erin')).toMatchObject({ status: 'past_due', past_due_since: T(70) });
      });
    });

    group('lookups, overage setting and the key lifecycle', (store) => {
      beforeAll(async () => {
        const { accounts } = store();
        await accounts.completeCheckout(checkout('frank'));
        await accounts.completeCheckout(checkout('grace', { customer: { ...checkout('grace').customer, email: 'Shared@Example.com' } }));
        await accounts.createCustomerWithKey(
          { id: 'cust_contract', email: 'shared@example.COM', name: 'C', tier: 'contract_2000', created_at: created },
          key('key_contract', hashOf('contract')),
        );
        await accounts.createCustomerWithKey(
          { id: 'cust_gone', email: 'gone@example.com', name: null, tier: 'contract_2000', created_at: created },
          key('key_gone_admin', hashOf('gone-admin')),
        );
        await accounts.completeCheckout(checkout('gone', { customer: { ...checkout('gone').customer, id: 'cust_gone_paid', email: 'gone@example.com' } }));
        await accounts.applyBillingChange({
          eventId: 'evt_cancel',
          eventCreated: at('2026-03-02T00:00:00Z'),
          stripeCustomerId: 'cus_gone',
          status: 'canceled',
        });
      });

      it('finds customers by checkout session and by e-mail, case-insensitively', async () => {
        const { accounts } = store();
        expect((await accounts.findCustomerByCheckoutSession('cs_frank'))?.id).toBe('cust_frank');
        expect(await accounts.findCustomerByCheckoutSession('cs_nobody')).toBeNull();
        expect(ids(await accounts.findCustomersByEmail('SHARED@example.com'))).toEqual(['cust_contract', 'cust_grace']);
        expect(await accounts.findCustomersByEmail('nobody@example.com')).toEqual([]);
      });

      it('sets the overage mode and lists customers for usage review (not canceled; bill or contract)', async () => {
        const { accounts } = store();
        expect(ids(await accounts.listCustomersForUsageReview())).toEqual(['cust_contract', 'cust_gone']);
        expect(await accounts.setOverage('cust_frank', 'bill')).toMatchObject({ id: 'cust_frank', overage: 'bill' });
        expect((await accounts.getCustomer('cust_frank'))?.overage).toBe('bill');
        expect(await accounts.setOverage('cust_nobody', 'bill')).toBeNull();
        await accounts.setOverage('cust_gone_paid', 'bill');
        expect(ids(await accounts.listCustomersForUsageReview())).toEqual(['cust_contract', 'cust_frank', 'cust_gone']);
      });

      it('rotates only an active key of the customer', async () => {
        const { accounts } = store();
        const rotated = await accounts.rotateKey('cust_frank', 'key_frank', key('key_frank_2', hashOf('frank2')));
        expect(rotated?.old).toMatchObject({ id: 'key_frank', status: 'rotated' });
        expect(rotated?.key).toMatchObject({ id: 'key_frank_2', customer_id: 'cust_frank', status: 'active', hash: hashOf('frank2') });
        expect(await accounts.rotateKey('cust_frank', 'key_frank', key('key_frank_3', hashOf('frank3')))).toBeNull();
        expect(await accounts.rotateKey('cust_grace', 'key_frank_2', key('key_frank_3', hashOf('frank3')))).toBeNull();
        expect(await accounts.findKeyByHash(hashOf('frank3'))).toBeNull();
        // A duplicate new hash fails and leaves the old key active.
        await expect(accounts.rotateKey('cust_frank', 'key_frank_2', key('key_frank_4', hashOf('grace')))).rejects.toThrow();
        expect((await accounts.findKeyByHash(hashOf('frank2')))?.key.status).toBe('active');
      });

      it('concurrent rotations of one key: exactly one wins', async () => {
        const { accounts } = store();
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => accounts.rotateKey('cust_grace', 'key_grace', key(`key_grace_${i}`, hashOf(`grace${i}`)))),
        );
        expect(results.filter((r) => r !== null)).toHaveLength(1);
        expect((await accounts.listKeys('cust_grace')).map((k) => k.status).sort()).toEqual(['active', 'rotated']);
      });

      it('revokes active and suspended keys; rotated and revoked ones stay; null for another customer', async () => {
        const { accounts, markPastDue } = store();
        expect(await accounts.revokeKey('cust_grace', 'key_frank_2')).toBeNull();
        expect(await accounts.revokeKey('cust_frank', 'key_missing')).toBeNull();
        expect(await accounts.revokeKey('cust_frank', 'key_frank')).toMatchObject({ id: 'key_frank', status: 'rotated' });
        expect(await accounts.revokeKey('cust_frank', 'key_frank_2')).toMatchObject({ id: 'key_frank_2', status: 'revoked' });
        expect(await accounts.revokeKey('cust_frank', 'key_frank_2')).toMatchObject({ id: 'key_frank_2', status: 'revoked' });
        await markPastDue('cust_contract', at('2026-01-01T00:00:00Z'));
        await accounts.suspendExpiredGrace(at('2026-02-01T00:00:00Z'), WEEK);
        expect((await accounts.findKeyByHash(hashOf('contract')))?.key.status).toBe('suspended');
        expect(await accounts.revokeKey('cust_contract', 'key_contract')).toMatchObject({ status: 'revoked' });
      });
    });

    group('reveals, login tokens, sessions and purge', (store) => {
      beforeAll(async () => {
        await store().accounts.completeCheckout(checkout('hana'));
        await store().accounts.completeCheckout(checkout('ivan'));
      });

      it('takes reveals once, and an expired reveal is deleted without being returned', async () => {
        const { accounts } = store();
        expect(await accounts.takeReveals('cust_hana', at('2026-03-01T12:00:00Z'))).toEqual([
          { customer_id: 'cust_hana', key_id: 'key_hana', sealed: 'sealed-reveal-hana', expires_at: at('2026-03-02T00:00:00Z') },
        ]);
        expect(await accounts.takeReveals('cust_hana', at('2026-03-01T12:00:00Z'))).toEqual([]);
        expect(await accounts.takeReveals('cust_ivan', at('2026-03-02T00:00:00Z'))).toEqual([]);
        expect(await accounts.takeReveals('cust_ivan', at('2026-03-01T00:00:00Z'))).toEqual([]);
      });

      it('consumes a login token once, and never an expired one', async () => {
        const { accounts } = store();
        await accounts.createLoginToken({ hash: hashOf('token1'), customer_id: 'cust_hana', expires_at: at('2026-03-01T00:15:00Z') });
        await accounts.createLoginToken({ hash: hashOf('token2'), customer_id: 'cust_hana', expires_at: at('2026-03-01T00:15:00Z') });
        const now = at('2026-03-01T00:10:00Z');
        const racing = await Promise.all(Array.from({ length: 5 }, () => accounts.consumeLoginToken(hashOf('token1'), now)));
        expect(racing.filter((r) => r !== null)).toEqual(['cust_hana']);
        expect(await accounts.consumeLoginToken(hashOf('token2'), at('2026-03-01T00:15:00Z'))).toBeNull();
        // The expired attempt still used it up.
        expect(await accounts.consumeLoginToken(hashOf('token2'), now)).toBeNull();
        expect(await accounts.consumeLoginToken(hashOf('unknown'), now)).toBeNull();
      });

      it('finds unexpired sessions and deletes them', async () => {
        const { accounts } = store();
        await accounts.createSession({
          hash: hashOf('session1'),
          customer_id: 'cust_ivan',
          created_at: at('2026-03-01T00:00:00Z'),
          expires_at: at('2026-03-31T00:00:00Z'),
        });
        expect(await accounts.findSession(hashOf('session1'), at('2026-03-30T23:59:59Z'))).toBe('cust_ivan');
        expect(await accounts.findSession(hashOf('session1'), at('2026-03-31T00:00:00Z'))).toBeNull();
        expect(await accounts.findSession(hashOf('nope'), at('2026-03-02T00:00:00Z'))).toBeNull();
        await accounts.deleteSession(hashOf('session1'));
        expect(await accounts.findSession(hashOf('session1'), at('2026-03-02T00:00:00Z'))).toBeNull();
      });

      it('purges expired reveals, login tokens and sessions, and keeps the rest', async () => {
        const { accounts } = store();
        await accounts.completeCheckout(checkout('june', { reveal: { sealed: 'sealed-june', expires_at: at('2026-03-05T00:00:00Z') } }));
        await accounts.completeCheckout(checkout('kurt', { reveal: { sealed: 'sealed-kurt', expires_at: at('2026-03-10T00:00:00Z') } }));
        await accounts.createLoginToken({ hash: hashOf('old-token'), customer_id: 'cust_june', expires_at: at('2026-03-05T00:00:00Z') });
        await accounts.createLoginToken({ hash: hashOf('new-token'), customer_id: 'cust_june', expires_at: at('2026-03-10T00:00:00Z') });
        await accounts.createSession({ hash: hashOf('old-session'), customer_id: 'cust_june', created_at: created, expires_at: at('2026-03-05T00:00:00Z') });
        await accounts.createSession({ hash: hashOf('new-session'), customer_id: 'cust_june', created_at: created, expires_at: at('2026-03-10T00:00:00Z') });
        await accounts.purgeExpired(at('2026-03-05T00:00:00Z'));
        // Asked with an earlier "now", only what the purge kept can answer.
        const earlier = at('2026-03-01T00:00:00Z');
        expect(await accounts.takeReveals('cust_june', earlier)).toEqual([]);
        expect(await accounts.takeReveals('cust_kurt', earlier)).toHaveLength(1);
        expect(await accounts.consumeLoginToken(hashOf('old-token'), earlier)).toBeNull();
        expect(await accounts.consumeLoginToken(hashOf('new-token'), earlier)).toBe('cust_june');
        expect(await accounts.findSession(hashOf('old-session'), earlier)).toBeNull();
        expect(await accounts.findSession(hashOf('new-session'), earlier)).toBe('cust_june');
      });
    });

    group('outbox', (store) => {
      const minute = (m: number) => new Date(Date.UTC(2026, 3, 1, 0, m));
      beforeAll(async () => {
        // Thirty mails, created a minute apart (mail 29 oldest), all due at once.
        for (let i = 0; i < 30; i++) {
          const tag = `mail${String(i).padStart(2, '0')}`;
          await store().accounts.completeCheckout(
            checkout(tag, { mail: { id: `m_${tag}`, to: `${tag}@example.com`, sealed: `sealed-${tag}`, created_at: minute(30 - i) } }),
          );
        }
      });

      it('claims due rows oldest first, at most `limit`, and leases them until leaseUntil', async () => {
        const { accounts } = store();
        const claimed = await accounts.claimOutbox(minute(40), minute(50), 3);
        expect(claimed.map((m) => m.id)).toEqual(['m_mail29', 'm_mail28', 'm_mail27']);
        expect(claimed.every((m) => m.next_attempt_at.getTime() === minute(50).getTime() && m.attempts === 0)).toBe(true);
        // Leased: not due again before the lease ends, due again once it has.
        expect(await accounts.claimOutbox(minute(49), minute(60), 1, 'm_mail29')).toEqual([]);
        expect((await accounts.claimOutbox(minute(50), minute(60), 1, 'm_mail29')).map((m) => m.id)).toEqual(['m_mail29']);
        // Not yet due (created in the future of `now`).
        expect(await accounts.claimOutbox(minute(5), minute(6), 1, 'm_mail00')).toEqual([]);
      });

      it('marks a row sent and wipes its body; it is never claimed again', async () => {
        const { accounts, inspectOutbox } = store();
        await accounts.markOutboxSent('m_mail29', minute(51));
        expect(await inspectOutbox('m_mail29')).toEqual({ sealed: '', attempts: 0, sent_at: minute(51), dead: false });
        expect(await accounts.claimOutbox(minute(90), minute(91), 1, 'm_mail29')).toEqual([]);
      });

      it('counts failed attempts, retries at the next time, and a dead row is wiped and never claimed', async () => {
        const { accounts, inspectOutbox } = store();
        await accounts.markOutboxFailed('m_mail28', minute(55), 'smtp 451');
        expect(await accounts.claimOutbox(minute(54), minute(56), 1, 'm_mail28')).toEqual([]);
        expect(await accounts.claimOutbox(minute(55), minute(56), 1, 'm_mail28')).toMatchObject([{ id: 'm_mail28', attempts: 1, sealed: 'sealed-mail28' }]);
        await accounts.markOutboxFailed('m_mail28', null, 'smtp 550');
        expect(await inspectOutbox('m_mail28')).toEqual({ sealed: '', attempts: 2, sent_at: null, dead: true });
        expect(await accounts.claimOutbox(minute(90), minute(91), 1, 'm_mail28')).toEqual([]);
      });

      it('concurrent claimers never get the same row', async () => {
        const { accounts } = store();
        const now = minute(100);
        const batches = await Promise.all(Array.from({ length: 8 }, () => accounts.claimOutbox(now, minute(200), 4)));
        const claimed = batches.flat().map((m) => m.id);
        expect(new Set(claimed).size).toBe(claimed.length);
        // What the racers left is still there for the next claim, and nothing else is.
        const rest = (await accounts.claimOutbox(now, minute(200), 100)).map((m) => m.id);
        expect(rest.filter((id) => claimed.includes(id))).toEqual([]);
        // 30 mails minus the sent one and the dead one.
        expect(claimed.length + rest.length).toBe(28);
      });
    });

    group('overage reported by two instances at once (one report in flight per customer and month)', (store) => {
      const month = '2026-03';
      const now = new Date('2026-03-15T00:00:00Z');
      beforeAll(async () => {
        const { accounts } = store();
        await accounts.completeCheckout(checkout('olga'));
        await accounts.setOverage('cust_olga', 'bill');
        await accounts.addUsage('cust_olga', 'live', month, TIERS.self_serve_49.quotaPerMonth + 250);
      });

      it('the second instance, having read the cursor before the first claimed it, reports nothing twice; the growth follows on the next run', async () => {
        const { accounts } = store();
        const sent: OverageReport[] = [];
        let firstInFlight: () => void = () => {};
        const firstSending = new Promise<void>((resolve) => (firstInFlight = resolve));
        let read = 0;
        let bothRead: () => void = () => {};
        const barrier = new Promise<void>((resolve) => (bothRead = resolve));
        /** An instance's ports: both read the cursor before either goes on; the second reads usage only once the first is sending. */
        const instance = (second: boolean): Ports<Accounts> =>
          ({
            accounts: {
              ...bound(accounts),
              async getOverageCursor(customerId: string, m: string) {
                const cursor = await accounts.getOverageCursor(customerId, m);
                if (m === month && ++read === 2) bothRead();
                if (m === month) await barrier;
                return cursor;
              },
              async getUsage(customerId: string, environment: Environment, m: string) {
                if (second && m === month) {
                  await firstSending;
                  // 100 more calls land while the first instance's report is in flight.
                  await accounts.addUsage('cust_olga', 'live', month, 100);
                }
                return accounts.getUsage(customerId, environment, m);
              },
            },
            limiter: { monthCount: async () => 0 },
            billing: {
              async reportOverage(report: OverageReport) {
                sent.push(report);
                if (!second) firstInFlight();
                await new Promise((r) => setTimeout(r, 20));
              },
            },
            logger: { log() {} },
          }) as unknown as Ports<Accounts>;
        await Promise.all([reportOverage(instance(false), now), reportOverage(instance(true), now)]);
        // Once both are done, a run reports what the second could not.
        read = 1;
        await reportOverage(instance(false), now);
        expect(sent.map((r) => r.value).reduce((a, b) => a + b, 0)).toBe(350);
        expect(new Set(sent.map((r) => r.identifier)).size).toBe(sent.length);
        expect(await accounts.getOverageCursor('cust_olga', month)).toEqual({ reported: 350, pending: null });
      });

      it('a claim holds only from the cursor that was read, and a late confirmation never moves the cursor back', async () => {
        const { accounts } = store();
        const month2 = '2026-04';
        const claims = await Promise.all([accounts.setOveragePending('cust_olga', month2, 100, 0), accounts.setOveragePending('cust_olga', month2, 120, 0)]);
        expect(claims.filter(Boolean)).toHaveLength(1);
        const pending = (await accounts.getOverageCursor('cust_olga', month2)).pending;
        expect([100, 120]).toContain(pending);
        await accounts.commitOverage('cust_olga', month2, pending as number);
        expect(await accounts.setOveragePending('cust_olga', month2, 300, 0)).toBe(false);
        expect(await accounts.setOveragePending('cust_olga', month2, 300, pending as number)).toBe(true);
        await accounts.commitOverage('cust_olga', month2, 300);
        // The first report's confirmation, arriving late, leaves the newer one standing.
        await accounts.commitOverage('cust_olga', month2, 100);
        expect(await accounts.getOverageCursor('cust_olga', month2)).toEqual({ reported: 300, pending: null });
      });
    });

    group('overage cursor, contract reviews and search events', (store) => {
      beforeAll(async () => {
        await store().accounts.completeCheckout(checkout('lena'));
      });

      it('keeps the reported and pending overage per customer and month', async () => {
        const { accounts } = store();
        expect(await accounts.getOverageCursor('cust_lena', '2026-03')).toEqual({ reported: 0, pending: null });
        expect(await accounts.setOveragePending('cust_lena', '2026-03', 400, 0)).toBe(true);
        expect(await accounts.getOverageCursor('cust_lena', '2026-03')).toEqual({ reported: 0, pending: 400 });
        await accounts.commitOverage('cust_lena', '2026-03', 400);
        expect(await accounts.getOverageCursor('cust_lena', '2026-03')).toEqual({ reported: 400, pending: null });
        expect(await accounts.setOveragePending('cust_lena', '2026-03', 900, 400)).toBe(true);
        expect(await accounts.getOverageCursor('cust_lena', '2026-03')).toEqual({ reported: 400, pending: 900 });
        await accounts.commitOverage('cust_lena', '2026-03', 5_000_000_000);
        expect(await accounts.getOverageCursor('cust_lena', '2026-03')).toEqual({ reported: 5_000_000_000, pending: null });
        expect(await accounts.getOverageCursor('cust_lena', '2026-04')).toEqual({ reported: 0, pending: null });
      });

      it('claims a contract review once per customer and month, even when claimed concurrently', async () => {
        const { accounts } = store();
        const claims = await Promise.all(Array.from({ length: 10 }, () => accounts.claimContractReview('cust_lena', '2026-03')));
        expect(claims.filter(Boolean)).toHaveLength(1);
        expect(await accounts.claimContractReview('cust_lena', '2026-03')).toBe(false);
        expect(await accounts.claimContractReview('cust_lena', '2026-04')).toBe(true);
      });

      it('stores search events as given, in arrival order', async () => {
        const { accounts, searchEvents } = store();
        const events: SearchEvent[] = [
          {
            kind: 'observed',
            search_id: 'srch_1',
            key_id: 'key_lena',
            received_at: at('2026-03-01T10:00:00Z'),
            hits: [
              { id: 42, position: 0 },
              { id: 7, position: 3 },
            ],
          },
          { kind: 'refined', search_id: 'srch_1', key_id: 'key_lena', received_at: at('2026-03-01T10:00:05Z'), q: 'blue note 1959' },
          { kind: 'observed', search_id: 'srch_2', key_id: 'key_lena', received_at: at('2026-03-01T10:01:00Z'), hits: [] },
        ];
        for (const event of events) await accounts.recordSearchEvent(event);
        expect(await searchEvents()).toEqual(events);
      });
    });
  });
}
