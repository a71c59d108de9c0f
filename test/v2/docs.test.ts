/** /docs (Swagger UI from the swagger-ui-dist package, served by the Node host) and /docs/migration (core). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { withDocs } from '@catalogue/host-kit';
import { describe, expect, it } from 'vitest';
import { setup } from '../support/service.js';

const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

describe('/docs', () => {
  it('serves the reference page and its packaged assets, pointed at the OpenAPI documents, with no CDN', async () => {
    const t = setup();
    const service = withDocs(t.service);
    const get = (path: string) => service.fetch(new Request(`http://catalogue.test${path}`));

    const page = await get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(referenced).toEqual(
      expect.arrayContaining(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/init.js', '/docs/migration']),
    );
    expect(referenced.filter((r) => /^(https?:)?\/\//.test(r))).toEqual([]);

    for (const path of referenced.filter((r) => r.startsWith('/docs/assets/'))) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      const name = path.slice('/docs/assets/'.length);
      if (name !== 'init.js') expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(dist, name))), path).toBe(true);
    }
    const init = await (await get('/docs/assets/init.js')).text();
    expect(init).toContain("url: '/api/v1/openapi.json'");
    expect(init).toContain("url: '/api/v2/openapi.json'");
    expect((await get('/docs/assets/../../package.json')).status).not.toBe(200);
    expect((await get('/docs/assets/secret.txt')).status).toBe(404);

    // Everything else reaches the core: the documents the page loads, and the migration guide.
    expect((await get('/api/v1/openapi.json')).status).toBe(200);
    const guide = await get('/docs/migration');
    expect(guide.status).toBe(200);
    expect(await guide.text()).toContain('<h1>Migrating from /api/v1 to /api/v2</h1>');

    // The page under every spelling of its path; a path that only starts with "docs" is not it.
    for (const path of ['/docs/', '/docs?urls.primaryName=v2', '/docs#top']) {
      expect((await get(path)).headers.get('content-type'), path).toBe('text/html; charset=utf-8');
    }
    const other = await get('/docsearch');
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: string }).error).toBe('route_not_found');
  });
});
