export { createMemoryAccounts, type MemoryAccounts } from './accounts.js';
export { createMemoryCatalogue } from './catalogue.js';
export { BURST_WINDOW_MS, createMemoryLimiter, LEASE_MS, type MemoryLimiter, type MemoryLimiterOptions } from './limiter.js';
export { createMemoryMailer, type MemoryMailer } from './mailer.js';
export { createManualClock, type ManualClock } from './manual-clock.js';
export { createTestService, type TestService, type TestServiceOptions } from './test-service.js';
