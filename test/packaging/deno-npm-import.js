// @ts-check
/**
 * Run by Deno (packages.test.ts): the built @catalogue/core through `npm:` specifiers, resolved
 * from the workspace's node_modules (nodeModulesDir "manual") — what a Deno user installing the
 * package gets. Prints the status and body of one request to an in-memory service.
 */

import { TIER_IDS } from 'npm:@catalogue/core';
import { createTestService } from 'npm:@catalogue/core/memory';

const t = createTestService();
const key = await t.issueKey({ tier: 'self_serve_49' });
const missing = await t.fetch('/api/v1/masters/1', { headers: { 'x-api-key': key } });
console.log(JSON.stringify({ knowsTiers: TIER_IDS.includes('self_serve_49'), status: missing.status, body: await missing.json() }));
