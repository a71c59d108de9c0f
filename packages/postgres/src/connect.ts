/**
 * A postgres.js pool configured for this service:
 * - a statement timeout per connection, the backstop that ends runaway queries (backstops.ts);
 * - reconnects that stay quick when connections are lost (a restart, a failover, an operator's
 *   pg_terminate_backend): postgres.js's default backoff grows 3^n / 100 s up to 20 s with the
 *   pool's failure count, so after a burst of terminations queued queries waited out the
 *   request deadline (15 s) for a reconnect; capped at 1 s here, they get a connection or a
 *   503 database_unavailable well inside it (docs/decisions.md §8);
 * - a connect timeout under the request deadline (postgres.js's default is 30 s);
 * - Nagle's algorithm off, as libpq has it (no-delay-socket.ts).
 */
import postgres, { type Options, type Sql } from 'postgres';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './backstops.js';
import { noDelaySocketOption } from './no-delay-socket.js';

export interface ConnectOptions {
  /** Pool size (DATABASE_POOL_MAX, default 10; 1 for PGlite, which serves one connection). */
  max?: number;
  /** statement_timeout set on every connection (default 10 s). */
  statementTimeoutMs?: number;
  /** Anything else postgres.js accepts. */
  postgres?: Options<Record<string, postgres.PostgresType>>;
}

/** A fresh connection that takes longer than this fails its queries with 503 database_unavailable. */
export const CONNECT_TIMEOUT_SECONDS = 5;

/** 50 ms doubling per consecutive failure, at most 1 s, with jitter so instances do not reconnect in step. */
export function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.05 * 2 ** retries, 1) * (0.5 + Math.random() / 2);
}

export function connectPostgres(url: string, options: ConnectOptions = {}): Sql {
  const statementTimeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => undefined,
    backoff: reconnectDelaySeconds,
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    ...noDelaySocketOption(url),
    ...options.postgres,
    connection: { application_name: 'catalogue', ...options.postgres?.connection, statement_timeout: statementTimeout },
  });
}
