export { createMemoryAccounts, type MemoryAccounts } from './accounts.js';
export { createMemoryCatalogue } from './catalogue.js';
export { createMemoryLimiter, type MemoryLimiter, BURST_WINDOW_MS, LEASE_MS } from './limiter.js';
export { createManualClock, type ManualClock } from './manual-clock.js';
export { createTestService, type TestService, type TestServiceOptions } from './test-service.js';
export { createMemoryMailer, type MemoryMailer } from './mailer.js';
