/** The routes the bench measures, each cycling deterministically through the sampled targets. */
import type { RouteRun } from './measure.js';
import { BATCH_SAMPLES, type Targets } from './targets.js';

export interface MeasuredRoute extends RouteRun {
  /** p95 goal in ms (null: measured, no goal set). */
  goalP95Ms: number | null;
  /** Requests (warm-up included) before the route's targets repeat, where a repeat would be a cache hit. */
  distinctRequests?: number;
}

const BATCH_SIZE = 500;
/** Whole-catalogue facets: the landing page counts, no q and no filter. */
const ALL_FACETS = 'facets=genre,style,format,country,year_from,label&limit=20';

const at = <T>(items: readonly T[], i: number): T => {
  if (items.length === 0) throw new Error('no sampled targets: is the catalogue loaded?');
  return items[i % items.length] as T;
};

export function benchRoutes(targets: Targets): MeasuredRoute[] {
  const batchIds = targets.masterIds.slice(0, BATCH_SAMPLES);
  return [
    { route: 'search (q + 2 facets)', goalP95Ms: 25, next: (i) => ({ method: 'GET', path: `/api/v1/search?${at(targets.searchQueries, i)}` }) },
    // Issue 29: the same queries' shape with a typo in q, which search corrects.
    { route: 'search typo (q + 2 facets)', goalP95Ms: 25, next: (i) => ({ method: 'GET', path: `/api/v1/search?${at(targets.typoQueries, i)}` }) },
    {
      route: 'search typo (q alone)',
      goalP95Ms: null,
      next: (i) => {
        const q = new URLSearchParams(at(targets.typoQueries, i)).get('q') ?? '';
        return { method: 'GET', path: `/api/v1/search?${new URLSearchParams({ q, limit: '20' })}` };
      },
    },
    {
      route: 'facets (q + 2 facets)',
      goalP95Ms: 50,
      next: (i) => ({ method: 'GET', path: `/api/v1/facets?facets=genre,style,format,country,year_from,label&${at(targets.searchQueries, i)}` }),
    },
    { route: 'facets (whole catalogue)', goalP95Ms: 50, next: () => ({ method: 'GET', path: `/api/v1/facets?${ALL_FACETS}` }) },
    {
      route: 'master',
      goalP95Ms: 3,
      // A stride coprime with the sample count visits every sampled id once before any repeats.
      distinctRequests: targets.masterIds.length,
      next: (i) => ({ method: 'GET', path: `/api/v1/masters/${at(targets.masterIds, i * 7)}` }),
    },
    {
      route: `batch of ${BATCH_SIZE}`,
      goalP95Ms: 20,
      next: (i) => {
        const ids = Array.from({ length: BATCH_SIZE }, (_, k) => at(batchIds, i * BATCH_SIZE + k));
        return { method: 'POST', path: '/api/v1/masters/batch', body: JSON.stringify({ ids }) };
      },
    },
    {
      route: 'resolve by name',
      goalP95Ms: null,
      next: (i) => ({ method: 'GET', path: `/api/v1/resolve?${new URLSearchParams({ q: at(targets.artistNames, i) })}` }),
    },
    { route: 'artist dossier', goalP95Ms: null, next: (i) => ({ method: 'GET', path: `/api/v1/artist/${at(targets.artistClusterIds, i)}` }) },
  ];
}
