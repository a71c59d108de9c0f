/** What `npm start` prints: where the service is, the admin token and a ready demo key. */
export function banner(info: { url: string; adminToken: string | null; demoKey: string; storage: string; limiter: string }): string {
  const lines = [
    '',
    `  catalogue is listening on ${info.url}`,
    `  storage: ${info.storage}   limits: ${info.limiter}`,
    '',
    info.adminToken ? `  admin token:  ${info.adminToken}` : '  admin routes: disabled (set ADMIN_TOKEN to enable)',
    `  demo key:     ${info.demoKey}   (ck_test_, self_serve_299)`,
    '',
    '  Try:',
    `    curl -s '${info.url}/api/v1/search?q=house&limit=3' -H 'X-API-Key: ${info.demoKey}'`,
    `    curl -s '${info.url}/api/v1/breakouts?window=90d&limit=5' -H 'X-API-Key: ${info.demoKey}'`,
    '',
  ];
  return lines.join('\n');
}
