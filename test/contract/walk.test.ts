/**
 * The contract walk: every documented operation of both documents is called with valid and
 * invalid inputs, and each real answer (status, documented headers, JSON body) is validated
 * against the document with ajv (draft 2020-12). Response schemas are strict, so a field the
 * code serves without documenting it fails here; an undocumented query parameter must be refused.
 */
import type { TestService } from '@catalogue/core/memory';
import { describe, expect, it } from 'vitest';
import { setup } from '../support/service.js';
import { ADMIN_TOKEN, type Call, type Ctx, casesFor, INVALID_ONLY, operations, SECRET } from './cases.js';
import { answerOf, createContractChecker, documentsOf } from './support.js';

async function walker(t: TestService) {
  const key = await t.issueKey({ tier: 'contract_2000' });
  const send = (call: Call) => {
    const method = call.method ?? 'GET';
    const headers: Record<string, string> = { 'x-api-key': key, ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers };
    const body = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
    return t.fetch(call.path, { method, headers, body });
  };
  const ctx = (base: string): Ctx => ({
    base,
    async beacon() {
      // Tokens are not tied to a version; v2 still answers after the v1 sunset.
      const res = await t.fetch('/api/v2/search?q=moments', { headers: { 'x-api-key': key } });
      return (await res.json()) as { search_id: string; beacon_token: string };
    },
  });
  return { key, send, ctx };
}

describe('contract walk', () => {
  it('every documented operation, valid and invalid inputs, answers as documented', async () => {
    const t = setup({ now: '2026-06-29T12:00:00Z', config: { secretKey: SECRET, adminToken: ADMIN_TOKEN } });
    const docs = await documentsOf(t);
    const { send, ctx } = await walker(t);
    const problems: string[] = [];
    let calls = 0;
    for (const [version, doc] of Object.entries(docs)) {
      const checker = createContractChecker(doc);
      const base = `/api/${version}`;
      for (const { op, path, method } of operations(doc)) {
        const cases = casesFor(doc, op);
        if (!cases && !INVALID_ONLY[op]) {
          problems.push(`${op}: documented but not walked (add valid and invalid cases)`);
          continue;
        }
        const record = async (call: Call, expectSuccess: boolean | null) => {
          const answer = await (async () => answerOf(await send({ method, ...call })))();
          calls++;
          for (const p of checker.check(path, method, answer)) problems.push(`${op} ${call.path}: ${p}`);
          if (call.status !== undefined && answer.status !== call.status)
            problems.push(`${op} ${call.path}: expected ${call.status}, got ${answer.status} ${answer.text.slice(0, 200)}`);
          if (expectSuccess === true && (answer.status < 200 || answer.status > 299))
            problems.push(`${op} ${call.path}: valid input answered ${answer.status} ${answer.text.slice(0, 200)}`);
          if (expectSuccess === false && answer.status < 400) problems.push(`${op} ${call.path}: invalid input answered ${answer.status}`);
          return answer;
        };
        const c = ctx(base);
        const valid = cases ? await cases.valid(c) : [];
        for (const call of valid) await record(call, true);
        for (const call of cases ? await cases.invalid(c) : []) await record(call, false);
        // OPTIONS reads neither query nor credentials: it answers every path with its Allow.
        if (method === 'OPTIONS') continue;
        // Generic invalid inputs: an undocumented parameter, and no credentials where some are needed.
        const probe = valid[0] ?? { path: path.replace(/\{(\w+)\}/g, 'x'), method, body: {} };
        const sep = probe.path.includes('?') ? '&' : '?';
        const undocumented = await record({ ...probe, path: `${probe.path}${sep}undocumented_param=1` }, false);
        // HEAD answers the status alone.
        if (undocumented.status !== 400 || (method !== 'HEAD' && (undocumented.body as { error?: string }).error !== 'invalid_query')) {
          problems.push(`${op}: an undocumented parameter answered ${undocumented.status} instead of 400 invalid_query`);
        }
        const operation = doc.paths[path]?.[method.toLowerCase()];
        if (operation && operation.security.length > 0 && valid[0]) {
          const { headers: _dropped, ...bare } = valid[0];
          const res = await answerOf(await t.fetch(bare.path, { method, body: bare.body === undefined ? undefined : JSON.stringify(bare.body) }));
          calls++;
          if (res.status !== 401) problems.push(`${op}: without credentials answered ${res.status}`);
          for (const p of checker.check(path, method, res)) problems.push(`${op} (no credentials): ${p}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThan(150);
  });

  it('after the v1 sunset, the 308 and 410 answers of v1 are the documented ones', async () => {
    const t = setup({ now: '2026-09-02T00:00:00Z', config: { secretKey: SECRET, adminToken: ADMIN_TOKEN, cutoverSunsetAt: '2026-09-01T00:00:00Z' } });
    // The v1 document is read before the sunset (afterwards /api/v1/openapi.json itself redirects).
    const { v1 } = await documentsOf(setup({ config: { cutoverSunsetAt: '2026-09-01T00:00:00Z' } }));
    const checker = createContractChecker(v1);
    const { send, ctx } = await walker(t);
    const problems: string[] = [];
    const seen = new Set<number>();
    for (const { op, path, method } of operations(v1)) {
      const cases = casesFor(v1, op);
      if (!cases) continue;
      for (const call of await cases.valid(ctx('/api/v1'))) {
        const answer = await answerOf(await send({ method, ...call }));
        seen.add(answer.status);
        for (const p of checker.check(path, method, answer)) problems.push(`${op} ${call.path}: ${p}`);
      }
    }
    expect(problems).toEqual([]);
    // OPTIONS answers 204 with Allow after the sunset too: it reaches no route.
    expect([...seen].sort()).toEqual([200, 201, 204, 308, 410]);
  });

  it('an undocumented response field fails the check (the walk can fail)', async () => {
    const t = setup({ config: { secretKey: SECRET, adminToken: ADMIN_TOKEN } });
    const { v2 } = await documentsOf(t);
    const checker = createContractChecker(v2);
    const { send } = await walker(t);
    const answer = await answerOf(await send({ path: '/api/v2/resolve?q=Marla%20Vance' }));
    expect(checker.check('/api/v2/resolve', 'GET', answer)).toEqual([]);
    const sneaky = { ...answer, body: { ...(answer.body as object), internal_score: 0.7 } };
    expect(checker.check('/api/v2/resolve', 'GET', sneaky).join()).toContain('must NOT have additional properties');
    const wrongCode = { ...answer, status: 404, body: { error: 'master_not_found', master_id: 1 } };
    expect(checker.check('/api/v2/resolve', 'GET', wrongCode).join()).toContain('must be equal to one of the allowed values');
  });
});
