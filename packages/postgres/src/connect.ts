/** A postgres.js pool configured for this service (statement timeout per connection). */
import postgres, { type Options, type Sql } from 'postgres';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './backstops.js';

export interface ConnectOptions {
  /** Pool size (DATABASE_POOL_MAX, default 10; 1 for PGlite, which serves one connection). */
  max?: number;
  /** statement_timeout set on every connection (default 10 s). */
  statementTimeoutMs?: number;
  /** Anything else postgres.js accepts. */
  postgres?: Options<Record<string, postgres.PostgresType>>;
}

export function connectPostgres(url: string, options: ConnectOptions = {}): Sql {
  const statementTimeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => undefined,
    ...options.postgres,
    connection: { application_name: 'catalogue', ...options.postgres?.connection, statement_timeout: statementTimeout },
  });
}
