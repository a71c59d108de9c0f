/** An answer as every runner sees it, and the check of one against a fixture case. */
import { gunzipSync } from 'node:zlib';
import { expect } from 'vitest';
import type { ExpectedAnswer } from './fixture.js';

export interface Answer {
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: Uint8Array;
}

/** The body's text, gunzipped when the answer says it is gzip (docs/decisions.md §6, "Compression"). */
export function textOf(answer: Answer): string {
  const bytes = answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body;
  return new TextDecoder().decode(bytes);
}

export function jsonOf(answer: Answer): unknown {
  return JSON.parse(textOf(answer));
}

export function checkAnswer(answer: Answer, expected: ExpectedAnswer, label: string): void {
  expect(answer.status, `${label}: status (body ${new TextDecoder().decode(answer.body).slice(0, 200)})`).toBe(expected.status);
  for (const [name, want] of Object.entries(expected.headers ?? {})) {
    const got = answer.headers[name];
    if (want === true) expect(got, `${label}: header ${name}`).toBeDefined();
    else if (want === false) expect(got, `${label}: header ${name}`).toBeUndefined();
    else if (want instanceof RegExp) expect(got, `${label}: header ${name}`).toMatch(want);
    else expect(got, `${label}: header ${name}`).toBe(want);
  }
  if (expected.emptyBody) expect(answer.body.byteLength, `${label}: empty body`).toBe(0);
  if (expected.json) expect(jsonOf(answer), `${label}: body`).toMatchObject(expected.json);
  // Every error body, the hosts' own refusals too, says a sentence and its request id (issue 16 item 5).
  if (expected.status >= 400 && answer.body.byteLength > 0) {
    expect(jsonOf(answer), `${label}: error body`).toMatchObject({ message: expect.any(String), request_id: answer.headers['x-request-id'] });
  }
}
