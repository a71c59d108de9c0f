-- Customers, their API keys (stored as SHA-256 only) and durable monthly usage.
CREATE TABLE customers (
  id             text PRIMARY KEY,
  email          text NOT NULL,
  name           text,
  tier           text NOT NULL,
  status         text NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'past_due', 'suspended', 'canceled')),
  overage        text NOT NULL DEFAULT 'block' CHECK (overage IN ('block', 'bill')),
  limits         jsonb,
  past_due_since timestamptz,
  created_at     timestamptz NOT NULL
);
CREATE INDEX customers_email ON customers (lower(email));
CREATE INDEX customers_past_due ON customers (past_due_since) WHERE status = 'past_due';

CREATE TABLE api_keys (
  id             text PRIMARY KEY,
  customer_id    text NOT NULL REFERENCES customers ON DELETE CASCADE,
  hash           text NOT NULL,
  display_prefix text NOT NULL,
  environment    text NOT NULL CHECK (environment IN ('live', 'test')),
  status         text NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'rotated', 'revoked', 'suspended')),
  created_at     timestamptz NOT NULL
);
-- The gate's only read: one index probe per request.
CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
CREATE INDEX api_keys_customer ON api_keys (customer_id, created_at);

CREATE TABLE usage_months (
  customer_id text NOT NULL REFERENCES customers ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  month       text NOT NULL CHECK (month ~ '^\d{4}-\d{2}$'),
  count       bigint NOT NULL DEFAULT 0,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, environment, month)
);
