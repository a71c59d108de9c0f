/**
 * The typed clients: openapi-fetch over the types openapi-typescript generated from the
 * service's OpenAPI documents (src/generated/), sending through the retrying fetch.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths as V1Paths } from './generated/v1.js';
import type { paths as V2Paths } from './generated/v2.js';
import { createRetryingFetch, type RetryOptions } from './retrying-fetch.js';

export interface CatalogueClientOptions extends RetryOptions {
  /** The service's origin, e.g. https://api.example.com (paths in calls start with /api/v1 or /api/v2). */
  baseUrl: string;
  /** Sent as X-API-Key on every call. Never log it; share only its first 12 characters. */
  apiKey?: string;
  /** More headers for every call. */
  headers?: Record<string, string>;
}

function clientOf<Paths extends {}>(options: CatalogueClientOptions): Client<Paths> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['X-API-Key'] = options.apiKey;
  return createClient<Paths>({ baseUrl: options.baseUrl, headers, fetch: createRetryingFetch(options) });
}

/** A client of /api/v1 (its paths, parameters and answers typed from the v1 document). */
export function createV1Client(options: CatalogueClientOptions): Client<V1Paths> {
  return clientOf<V1Paths>(options);
}

/** A client of /api/v2, the cluster-first version. */
export function createV2Client(options: CatalogueClientOptions): Client<V2Paths> {
  return clientOf<V2Paths>(options);
}
