-- Billing and the key lifecycle: Stripe ids on customers, the record of applied webhook
-- events, one-time reveals, the mail outbox, dashboard login tokens and sessions, the overage
-- cursor, contract review claims and search-event beacons. Secrets are stored only as hashes
-- (tokens, sessions) or AES-GCM sealed blobs (reveals, outbox bodies) that core produced.

ALTER TABLE customers
  ADD COLUMN stripe_customer_id     text,
  ADD COLUMN stripe_subscription_id text,
  ADD COLUMN checkout_session_id    text,
  -- The `created` time of the newest billing event applied; older events are stale.
  ADD COLUMN last_billing_event_at  timestamptz;
-- One customer per Checkout Session: the arbiter of concurrent completions of one session.
CREATE UNIQUE INDEX customers_checkout_session ON customers (checkout_session_id) WHERE checkout_session_id IS NOT NULL;
CREATE INDEX customers_stripe_customer ON customers (stripe_customer_id, created_at) WHERE stripe_customer_id IS NOT NULL;

-- Webhook event ids already handled: inserting the id is what makes a handler run once.
CREATE TABLE billing_events (
  id          text PRIMARY KEY,
  recorded_at timestamptz NOT NULL DEFAULT now()
);

-- The plaintext key sealed for its one-time reveal on the dashboard.
CREATE TABLE reveals (
  key_id      text PRIMARY KEY REFERENCES api_keys ON DELETE CASCADE,
  customer_id text NOT NULL REFERENCES customers ON DELETE CASCADE,
  sealed      text NOT NULL,
  expires_at  timestamptz NOT NULL,
  -- Insertion order: reveals are handed back newest first.
  seq         bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX reveals_customer ON reveals (customer_id);
CREATE INDEX reveals_expires ON reveals (expires_at);

-- Mail to send; the sealed body is wiped once sent or dead.
CREATE TABLE outbox (
  id              text PRIMARY KEY,
  customer_id     text NOT NULL REFERENCES customers ON DELETE CASCADE,
  recipient       text NOT NULL,
  sealed          text NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  created_at      timestamptz NOT NULL,
  sent_at         timestamptz,
  dead            boolean NOT NULL DEFAULT false,
  last_error      text
);
-- claimOutbox: due rows oldest first, only among those still to send.
CREATE INDEX outbox_pending ON outbox (created_at, id) WHERE sent_at IS NULL AND NOT dead;

CREATE TABLE login_tokens (
  hash        text PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customers ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX login_tokens_expires ON login_tokens (expires_at);

CREATE TABLE sessions (
  hash        text PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customers ON DELETE CASCADE,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- Overage calls reported to Stripe per month, and a report begun but not yet confirmed.
CREATE TABLE overage_cursors (
  customer_id text NOT NULL REFERENCES customers ON DELETE CASCADE,
  month       text NOT NULL CHECK (month ~ '^\d{4}-\d{2}$'),
  reported    bigint NOT NULL DEFAULT 0,
  pending     bigint,
  PRIMARY KEY (customer_id, month)
);

-- One contract review alarm per customer and month: the primary key is the claim.
CREATE TABLE contract_review_claims (
  customer_id text NOT NULL REFERENCES customers ON DELETE CASCADE,
  month       text NOT NULL CHECK (month ~ '^\d{4}-\d{2}$'),
  claimed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, month)
);

-- Search-event beacons (observed hits or the refining query), as authenticated by their token.
-- No foreign key to api_keys: beacons are analytics and must not fail on key housekeeping.
CREATE TABLE search_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('observed', 'refined')),
  search_id   text NOT NULL,
  key_id      text NOT NULL,
  received_at timestamptz NOT NULL,
  -- observed: [{id, position}]; refined: null.
  hits        jsonb,
  -- refined: the next query; observed: null.
  q           text,
  CHECK ((kind = 'observed') = (hits IS NOT NULL) AND (kind = 'refined') = (q IS NOT NULL))
);
CREATE INDEX search_events_search ON search_events (search_id);
