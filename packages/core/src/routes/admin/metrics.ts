/**
 * GET /metrics: the Prometheus exposition of the service's metrics (the Metrics port's render,
 * host-kit's prom-client registry), behind `Authorization: Bearer $ADMIN_TOKEN` like every
 * operator route (docs/decisions.md §8, "Access log and metrics"). Not in the OpenAPI documents:
 * it is the operator's, not the API's. Without metrics that render, 404.
 */
import { ApiError } from '../../errors/api-error.js';
import { Reply } from '../../http/json.js';
import { route } from '../../http/route.js';

export const metricsRoute = route({
  method: 'GET',
  path: '/metrics',
  access: 'admin',
  summary: 'Prometheus metrics of this instance',
  tags: ['admin'],
  responses: { 200: { description: 'Prometheus text exposition format.' } },
  async handler({ ports }) {
    if (!ports.metrics.render) throw new ApiError('route_not_found', { message: 'this deployment keeps no metrics' });
    const { contentType, body } = await ports.metrics.render();
    return new Reply(200, body, { 'content-type': contentType });
  },
});
