/** @catalogue/host-kit: what every host of the catalogue API does the same way. */

export { type BackgroundWork, backgroundWork, withinGrace } from './background.js';
export { capRequestBody, countingStream, declaredTooLarge, HOST_MAX_BODY_BYTES, payloadTooLarge, payloadTooLargeResponse } from './body-limit.js';
export { clientIpFrom, type ProxyTrust, type TrustProxy, trustProxyOf } from './client-ip.js';
export { type BannerInfo, banner, demoKeyFor, demoKeyWanted, demoSecrets, demoSecretsWanted, issueDemoKey, keptDemoKey, persistentSecret } from './demo.js';
export { createDocsHandler, type DocsHandler, withDocs } from './docs.js';
export { type HostEnv, readEnv, type StorageChoice } from './env.js';
export { JOBS_INTERVAL_MS, type JobSchedule, scheduleJobs } from './jobs.js';
export { type MetricSources, prometheusMetrics } from './metrics.js';
export { nativeHasher } from './native-hasher.js';
export { optionalPeer } from './optional-peer.js';
export { type PreparedDatabase, prepareDatabase } from './prepare-database.js';
export { hostRefusal } from './refusal.js';
export { type RequestUrlParts, requestUrl } from './request-url.js';
export { routedRequest } from './routed-request.js';
export { type HostRuntime, runHost, serveFromEnv } from './run-host.js';
export { HOST_GRACE_MS, type ServedHost, type ServeOptions } from './serve.js';
export { createServiceFromEnv, type HostedService, type HostStorage, type ServiceFromEnvOptions } from './service-from-env.js';
export { exitGracefullyOnSignals } from './shutdown.js';
export { MAX_WEB_CONCURRENCY, webConcurrencyOf, workersRefusal } from './web-concurrency.js';
