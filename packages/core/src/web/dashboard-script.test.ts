import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED, renderDashboardScriptModule } from '../../scripts/embed-browser-scripts.js';
import { dashboardPageRoute } from './dashboard-page.js';
import { DASHBOARD_SCRIPT } from './dashboard-script.generated.js';

describe('the dashboard script, embedded at build time', () => {
  it('the generated module is the compiled browser/dashboard.ts (run npm run embed-browser-scripts -w @catalogue/core)', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(renderDashboardScriptModule());
  });

  it('the CSP hash is the hash of the script text', () => {
    expect(DASHBOARD_SCRIPT.sha256).toBe(`sha256-${createHash('sha256').update(DASHBOARD_SCRIPT.source).digest('base64')}`);
  });

  it('GET /dashboard embeds exactly that text and allows no other script', async () => {
    const reply = (await dashboardPageRoute.handler({} as never)) as { body: string; headers: Record<string, string> };
    expect(reply.body).toContain(`<script>${DASHBOARD_SCRIPT.source}</script>`);
    const csp = reply.headers['content-security-policy'];
    expect(csp).toContain(`script-src '${DASHBOARD_SCRIPT.sha256}'`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
