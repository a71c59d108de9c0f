/**
 * The Metrics port: what the service counts for operators (docs/decisions.md §8, "Access log
 * and metrics"). Core only reports; host-kit's implementation keeps Prometheus metrics
 * (prom-client) and renders them for `GET /metrics`. The default does nothing.
 */

export type FailOpenScope = 'key' | 'public' | 'beacon';

export interface Metrics {
  /** One answered request: its route pattern (null: no route matched), method, status, seconds taken. */
  request(route: string | null, method: string, status: number, seconds: number): void;
  /** The limit store failed and a request went on without a limit decision. */
  limiterFailOpen(scope: FailOpenScope): void;
  /** The exposition of every metric, for `GET /metrics`; absent: the endpoint answers 404. */
  render?(): Promise<{ contentType: string; body: string }>;
}
