-- Durable usage flushed from Redis's own month counters, by whichever instance is alive
-- (issue 27 item 2; packages/upstash/src/usage-flush.ts). A flush moves the counter's range
-- (from, upto] of one counter generation into usage_months / usage_days; this row keeps how far
-- each generation is durable, so a flush that is repeated (its instance died after writing here
-- but before telling Redis) adds nothing twice, and an instance that finds Redis restarted knows
-- which of its calls the old generation had already made durable.
CREATE TABLE usage_flushes (
  customer_id text NOT NULL REFERENCES customers ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  month       text NOT NULL CHECK (month ~ '^\d{4}-\d{2}$'),
  generation  text NOT NULL,
  -- The counter's value up to which this generation's calls are in usage_months.
  upto        bigint NOT NULL,
  -- What the last flush added (upto minus what was durable before it).
  delta       bigint NOT NULL,
  flushed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, environment, month, generation)
);

-- Calls made durable one by one when their counter could not be flushed (an instance stopping
-- while Redis is down: Accounts.addUsageDirect), by their place in the counter, so a later
-- flush of a range holding them (Redis came back with its data) skips them.
CREATE TABLE usage_direct (
  customer_id text NOT NULL,
  environment text NOT NULL,
  month       text NOT NULL,
  generation  text NOT NULL,
  position    bigint NOT NULL,
  PRIMARY KEY (customer_id, environment, month, generation, position),
  FOREIGN KEY (customer_id, environment, month, generation) REFERENCES usage_flushes ON DELETE CASCADE
);
