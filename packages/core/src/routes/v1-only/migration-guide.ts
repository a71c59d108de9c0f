/**
 * GET /docs/migration: the v1 → v2 migration guide, generated from the route list and the
 * cutover rules so it always names the routes the service really has.
 */
import type { ResolvedConfig } from '../../config.js';
import { type Html, html, htmlReply } from '../../http/html.js';
import { type RouteDef, route } from '../../http/route.js';
import { documentHeaders } from '../../http/security-headers.js';
import { httpDate, isV1Path, routeKind, sunsetInstant, v2PathOf } from '../../versioning.js';

const shown = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function timeline(config: ResolvedConfig): Html {
  const sunset = sunsetInstant(config);
  if (sunset === null) return html`<p>No sunset date is set yet: /api/v1 serves unchanged. Both versions answer today, so you can move now.</p>`;
  const day = 86_400_000;
  return html`<ul>
<li>${httpDate(sunset - 60 * day)}: this guide is linked from <code>GET /api/v1</code>.</li>
<li>${httpDate(sunset - 30 * day)}: every v1 answer of a keeper or demoted route carries <code>Deprecation: true</code>, <code>Sunset: ${httpDate(sunset)}</code> and <code>Link: &lt;v2 path&gt;; rel="successor-version"</code>.</li>
<li>${httpDate(sunset)} (sunset): keeper routes answer <code>308</code> to the v2 path (method and query kept); demoted routes answer <code>410 gone</code> with a successor <code>Link</code> and a body saying where the data went. Operational routes are untouched.</li>
</ul>`;
}

export function migrationGuideHtml(routes: readonly RouteDef[], config: ResolvedConfig): Html {
  const rows = routes
    .filter((r) => isV1Path(r.path) && r.access !== 'admin')
    .map((r) => {
      const kind = routeKind(r, routes);
      const to = kind === 'keeper' ? `${r.method} ${shown(v2PathOf(r.path))}` : kind === 'demoted' ? (r.deprecation?.where ?? '') : 'stays on /api/v1';
      return html`<tr><td><code>${r.method} ${shown(r.path)}</code></td><td>${kind}</td><td>${to}</td></tr>
`;
    });
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Migrating from /api/v1 to /api/v2</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}code{font-size:.9em}</style>
</head><body>
<h1>Migrating from /api/v1 to /api/v2</h1>
<p>v2 is cluster-first: an artist, label or festival is addressed by its <code>cluster_id</code>, and sources (Discogs masters and releases, Bandcamp) attach to it. Authentication is unchanged (<code>X-API-Key</code>).</p>
<h2>The canonical flow</h2>
<ol><li><code>GET /api/v2/resolve?q=…</code> (or <code>url</code>, <code>discogs</code>, <code>mbid</code>) once, and keep the <code>cluster_id</code>.</li>
<li><code>GET /api/v2/artist/{cluster_id}</code>, optionally with <code>fields=identity,behavior,discography,bandcamp</code>.</li></ol>
<h2>Timeline</h2>
${timeline(config)}
<h2>Where each v1 route goes</h2>
<p><code>GET /api/v1/wayfind?path=&lt;v1 path and query&gt;</code> answers this for one call; <code>GET /api/v1/wayfind/master/{id}</code> gives the v2 artist path and the JSON pointer of a master.</p>
<table><thead><tr><th>v1 route</th><th>kind</th><th>in v2</th></tr></thead><tbody>
${rows}
</tbody></table>
<p>Reference: <a href="/docs">API reference</a>, <a href="/api/v2/openapi.json">v2 OpenAPI</a>, <a href="/api/v1/openapi.json">v1 OpenAPI</a>.</p>
</body></html>`;
}

export const migrationGuideRoute = route({
  method: 'GET',
  path: '/docs/migration',
  access: 'public',
  summary: 'Migration guide from /api/v1 to /api/v2 (HTML)',
  tags: ['meta'],
  responses: { 200: { description: 'The guide.' } },
  handler({ config, routes }) {
    // The dashboard pages' headers (issue 30, 5): never framed, no script, nothing from elsewhere.
    return htmlReply(migrationGuideHtml(routes, config), 200, documentHeaders());
  },
});
