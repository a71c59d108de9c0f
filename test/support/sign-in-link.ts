/**
 * Follows a mailed sign-in link as a browser does (docs/decisions.md §3): its page (a GET, which
 * spends nothing), then the page's button (a same-origin POST of the token). A link whose page is
 * not 200 answers with that page. `send` takes a path on the service's origin.
 */
export async function followSignInLink(send: (path: string, init?: RequestInit) => Promise<Response>, link: string, origin: string): Promise<Response> {
  const url = new URL(link, origin);
  const page = await send(url.pathname + url.search, { redirect: 'manual' });
  if (page.status !== 200) return page;
  return send('/api/dashboard/session', {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: url.searchParams.get('token') ?? '' }).toString(),
  });
}
