/**
 * The shared shell of the web pages (readable, high contrast, visible focus) and the headers
 * every page answers with.
 */
import { type Html, html, htmlReply, trusted } from '../http/html.js';
import type { Reply } from '../http/json.js';
import { documentHeaders } from '../http/security-headers.js';

/** A script compiled into the module graph (scripts/embed-browser-scripts.ts) with its CSP hash. */
export interface EmbeddedScript {
  source: string;
  /** `sha256-<base64>` of `source`: the page's CSP allows exactly this script. */
  sha256: string;
}

const STYLE = trusted(`
:root { color-scheme: light; font-family: system-ui, sans-serif; color: #111; background: #fff; }
body { max-width: 52rem; margin: 0 auto; padding: 1.5rem; line-height: 1.5; }
a { color: #0645ad; }
button, input, select { font: inherit; padding: .45rem .8rem; border: 2px solid #333; border-radius: 4px; background: #fff; color: #111; }
button { background: #0b3d91; color: #fff; border-color: #0b3d91; cursor: pointer; }
button.secondary { background: #fff; color: #0b3d91; }
button.secondary[aria-pressed="true"] { background: #0b3d91; color: #fff; }
button.danger { background: #a4161a; border-color: #a4161a; }
:focus-visible { outline: 3px solid #ff9f1c; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem; border-bottom: 1px solid #999; }
code.key { display: inline-block; padding: .5rem; background: #f1f1f1; border: 1px solid #333; word-break: break-all; font-size: 1.05rem; }
.notice { border-left: 6px solid #0b3d91; padding: .5rem 1rem; background: #eef3fb; }
.plans { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 1rem; }
.plan { border: 2px solid #333; border-radius: 6px; padding: 1rem; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
`);

/**
 * `referrer` is the page's referrer policy: `no-referrer` by default; a page whose form posts to
 * this origin takes `same-origin`, since under `no-referrer` a browser sends that POST with
 * `Origin: null`, which the same-origin check refuses.
 */
export function page(title: string, body: Html, script?: EmbeddedScript, referrer: 'no-referrer' | 'same-origin' = 'no-referrer'): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${referrer}">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main id="main">
${body}
</main>
${script ? html`<script>${trusted(script.source)}</script>` : ''}
</body>
</html>`;
}

/**
 * HTML answers may hold a key or a session: never cached, never framed. No inline script runs
 * but the one the page embeds, allowed by its hash; a page without a script allows none.
 */
export function pageHeaders(script?: EmbeddedScript): Record<string, string> {
  return { 'cache-control': 'no-store', ...documentHeaders(script ? `'${script.sha256}'` : "'none'") };
}

/** A page as an answer, with the page headers (plus `headers`, e.g. a session cookie). */
export function pageReply(
  title: string,
  body: Html,
  options: { status?: number; headers?: Record<string, string>; script?: EmbeddedScript; referrer?: 'no-referrer' | 'same-origin' } = {},
): Reply {
  return htmlReply(page(title, body, options.script, options.referrer), options.status ?? 200, { ...pageHeaders(options.script), ...options.headers });
}
