/**
 * The Metrics port on prom-client (a maintained Prometheus client, so the exposition format,
 * label escaping and histogram buckets are not ours to get right): one registry per service,
 * rendered by `GET /metrics` (docs/decisions.md §8, "Access log and metrics").
 *
 *   catalogue_http_requests_total{route,method,status}       counter
 *   catalogue_http_request_duration_seconds{route,method}    histogram
 *   catalogue_ratelimit_fail_open_total{scope}                counter
 *   catalogue_db_in_flight{pool}                              gauge (the backstops' count, read at scrape)
 *   catalogue_mail_outbox_depth{state}                        gauge (unsent outbox rows, pending / dead, read at scrape)
 *
 * `route` is the route's pattern (`/api/v1/masters/:id`) or `unmatched`: never a raw path, so
 * the label set stays bounded whatever clients send.
 */
import type { Metrics } from '@catalogue/core';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface MetricSources {
  /** Database calls in flight per pool (the backstops' count, postgres guardFor). */
  inFlight?: () => Record<string, number>;
  /** Unsent mail outbox rows: still retried, and given up on. */
  outboxDepth?: () => Promise<{ pending: number; dead: number }>;
}

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

export function prometheusMetrics(sources: MetricSources = {}): Metrics & { registry: Registry } {
  const registry = new Registry();
  const requests = new Counter({
    name: 'catalogue_http_requests_total',
    help: 'Requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'catalogue_http_request_duration_seconds',
    help: 'Time from request to response headers, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  const failOpens = new Counter({
    name: 'catalogue_ratelimit_fail_open_total',
    help: 'Requests let through without a limit decision because the limit store failed.',
    labelNames: ['scope'] as const,
    registers: [registry],
  });
  for (const scope of ['key', 'public', 'beacon']) failOpens.inc({ scope }, 0);
  if (sources.inFlight) {
    const read = sources.inFlight;
    new Gauge({
      name: 'catalogue_db_in_flight',
      help: 'Database calls in flight per pool (the backstop cap is 144).',
      labelNames: ['pool'] as const,
      registers: [registry],
      collect() {
        for (const [pool, count] of Object.entries(read())) this.set({ pool }, count);
      },
    });
  }
  if (sources.outboxDepth) {
    const read = sources.outboxDepth;
    new Gauge({
      name: 'catalogue_mail_outbox_depth',
      help: 'Mail outbox rows not yet sent: pending (still retried) and dead (given up on, alarmed).',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        const depth = await read();
        this.set({ state: 'pending' }, depth.pending);
        this.set({ state: 'dead' }, depth.dead);
      },
    });
  }
  return {
    registry,
    request(route, method, status, seconds) {
      const label = route ?? 'unmatched';
      requests.inc({ route: label, method, status: String(status) });
      duration.observe({ route: label, method }, seconds);
    },
    limiterFailOpen(scope) {
      failOpens.inc({ scope });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
