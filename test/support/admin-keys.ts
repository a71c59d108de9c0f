/** A customer key issued through the admin API of a served host (POST /api/v1/admin/keys), as an operator would. */
export async function issueKeyOverHttp(serverUrl: string, adminToken: string, body: Record<string, unknown>): Promise<string> {
  return (await issueCustomerOverHttp(serverUrl, adminToken, body)).key;
}

/** The same, with the customer the key was issued to. */
export async function issueCustomerOverHttp(
  serverUrl: string,
  adminToken: string,
  body: Record<string, unknown>,
): Promise<{ key: string; customerId: string }> {
  const issued = await fetch(`${serverUrl}/api/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (issued.status !== 201 && issued.status !== 200) throw new Error(`admin/keys answered ${issued.status}: ${await issued.text()}`);
  const answer = (await issued.json()) as { key: string; customer_id: string };
  return { key: answer.key, customerId: answer.customer_id };
}
