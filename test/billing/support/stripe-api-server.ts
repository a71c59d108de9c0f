/**
 * A local stand-in for the parts of Stripe's API the service calls, on node:http: Checkout
 * Session create/retrieve and billing meter events (deduplicated by identifier, as Stripe
 * does). STRIPE_API_BASE points the real `stripe` client at it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  customer: string | null;
  subscription: string | null;
  customer_email: string | null;
  customer_details: { email: string } | null;
  metadata: Record<string, string>;
  success_url: string;
  line_items_price: string | null;
  subscription_metadata_tier: string | null;
}

export interface StripeApiStandIn {
  url: string;
  sessions: Map<string, FakeCheckoutSession>;
  /** Meter events by identifier (a repeated identifier is counted once, like Stripe). */
  meterEvents: Map<string, { event_name: string; customer: string; value: number }>;
  meterRequests: number;
  /** Marks a session paid, as Stripe does when the buyer completes Checkout. */
  complete(id: string, customer: string, subscription: string): FakeCheckoutSession;
  close(): Promise<void>;
}

let counter = 0;

export async function startStripeApi(): Promise<StripeApiStandIn> {
  const sessions = new Map<string, FakeCheckoutSession>();
  const meterEvents: StripeApiStandIn['meterEvents'] = new Map();
  const state = { meterRequests: 0 };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!req.headers.authorization?.startsWith('Bearer sk_test_')) return send(401, { error: { type: 'invalid_request_error', message: 'bad key' } });
    const url = new URL(req.url ?? '/', 'http://stripe.local');
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const id = `cs_test_${++counter}${Date.now()}`;
      const session: FakeCheckoutSession = {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${id}`,
        mode: form.get('mode') ?? '',
        status: 'open',
        payment_status: 'unpaid',
        customer: null,
        subscription: null,
        customer_email: form.get('customer_email'),
        customer_details: null,
        metadata: { tier: form.get('metadata[tier]') ?? '' },
        success_url: form.get('success_url') ?? '',
        line_items_price: form.get('line_items[0][price]'),
        subscription_metadata_tier: form.get('subscription_data[metadata][tier]'),
      };
      sessions.set(id, session);
      return send(200, session);
    }
    const retrieve = url.pathname.match(/^\/v1\/checkout\/sessions\/([^/]+)$/);
    if (req.method === 'GET' && retrieve) {
      const session = sessions.get(decodeURIComponent(retrieve[1] as string));
      return session
        ? send(200, session)
        : send(404, { error: { type: 'invalid_request_error', message: 'No such checkout.session', code: 'resource_missing' } });
    }
    if (req.method === 'POST' && url.pathname === '/v1/billing/meter_events') {
      state.meterRequests++;
      const identifier = form.get('identifier') ?? '';
      if (!meterEvents.has(identifier)) {
        meterEvents.set(identifier, {
          event_name: form.get('event_name') ?? '',
          customer: form.get('payload[stripe_customer_id]') ?? '',
          value: Number(form.get('payload[value]')),
        });
      }
      return send(200, {
        object: 'billing.meter_event',
        identifier,
        event_name: form.get('event_name'),
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        payload: {},
        timestamp: 0,
      });
    }
    send(404, { error: { type: 'invalid_request_error', message: `no route ${req.method} ${url.pathname}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    meterEvents,
    get meterRequests() {
      return state.meterRequests;
    },
    complete(id, customer, subscription) {
      const session = sessions.get(id);
      if (!session) throw new Error(`no session ${id}`);
      Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription, customer_details: { email: session.customer_email ?? '' } });
      return session;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
