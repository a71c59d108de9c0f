/**
 * @catalogue/client: a small typed client of the music catalogue API. Types are generated from
 * the service's OpenAPI documents; calls go through openapi-fetch and a fetch that follows the
 * specification's retry guidance, follows 308s and reports Deprecation/Sunset.
 */
export { type CatalogueClientOptions, createV1Client, createV2Client } from './client.js';
export { type DeprecationNotice, deprecationOf } from './deprecation.js';
export type { components as V1Components, operations as V1Operations, paths as V1Paths } from './generated/v1.js';
export type { components as V2Components, operations as V2Operations, paths as V2Paths } from './generated/v2.js';
export { FIRST_BACKOFF_MS, INTERNAL_RETRY_MS, MAX_BACKOFF_MS, type RetryState, retryAfterMs, retryDelayMs } from './retry-policy.js';
export { createRetryingFetch, type RetryOptions } from './retrying-fetch.js';
