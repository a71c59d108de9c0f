-- Durable usage per UTC day, beside usage_months: addUsage writes both in one statement, so the
-- days of a month always add up to its count. The dashboard's daily chart reads them
-- (issue 16 item 9); billing and the quota keep reading usage_months.
CREATE TABLE usage_days (
  customer_id text NOT NULL REFERENCES customers ON DELETE CASCADE,
  environment text NOT NULL CHECK (environment IN ('live', 'test')),
  month       text NOT NULL CHECK (month ~ '^\d{4}-\d{2}$'),
  day         date NOT NULL,
  count       bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (customer_id, environment, month, day)
);
