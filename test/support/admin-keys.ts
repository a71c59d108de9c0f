/** A customer key issued through the admin API of a served host (POST /api/v1/admin/keys), as an operator would. */
export async function issueKeyOverHttp(serverUrl: string, adminToken: string, body: Record<string, unknown>): Promise<string> {
  const issued = await fetch(`${serverUrl}/api/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (issued.status !== 201 && issued.status !== 200) throw new Error(`admin/keys answered ${issued.status}: ${await issued.text()}`);
  return ((await issued.json()) as { key: string }).key;
}
