/** Form or JSON bodies (form-body.ts): either type as a plain map; anything else refused with its code. */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { readFormOrJson, readValidBody } from './form-body.js';

const post = (body: BodyInit, type?: string) =>
  new Request('http://x.test/api/signup', { method: 'POST', body, headers: type ? { 'content-type': type } : {} });

async function refusal(promise: Promise<unknown>): Promise<[number, string, unknown]> {
  const error = await promise.then(
    () => new Error('accepted'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const e = error as ApiError;
  return [e.status, e.code, e.body.details ?? e.body.message];
}

describe('readFormOrJson', () => {
  it('reads an HTML form, whatever the parameters and case of its type', async () => {
    expect(await readFormOrJson(post('email=a%40b.co&tier=self_serve_49', 'application/x-www-form-urlencoded'), 1024)).toEqual({
      email: 'a@b.co',
      tier: 'self_serve_49',
    });
    expect(await readFormOrJson(post('a=1', ' Application/X-WWW-Form-Urlencoded ; charset=UTF-8'), 1024)).toEqual({ a: '1' });
  });

  it('reads a JSON object', async () => {
    expect(await readFormOrJson(post('{"email":"a@b.co","n":2}', 'application/json; charset=utf-8'), 1024)).toEqual({ email: 'a@b.co', n: 2 });
  });

  it('400 invalid_body for JSON that is not an object', async () => {
    const details = [{ path: '', message: 'body must be a JSON object' }];
    for (const body of ['[1]', 'null', '"text"', '3', '{oops', ''])
      expect(await refusal(readFormOrJson(post(body, 'application/json'), 1024)), body).toEqual([400, 'invalid_body', details]);
  });

  it('400 invalid_body for bytes that are not UTF-8', async () => {
    expect(await refusal(readFormOrJson(post(Uint8Array.from([0x61, 0xff, 0x62]), 'application/json'), 1024))).toEqual([
      400,
      'invalid_body',
      [{ path: '', message: 'body is not valid UTF-8' }],
    ]);
  });

  it('415 for any other type, or none', async () => {
    const message = 'send application/json or application/x-www-form-urlencoded';
    expect(await refusal(readFormOrJson(post('a=1', 'text/plain'), 1024))).toEqual([415, 'unsupported_media_type', message]);
    expect(await refusal(readFormOrJson(post('{}', 'application/problem+json'), 1024))).toEqual([415, 'unsupported_media_type', message]);
    expect(await refusal(readFormOrJson(new Request('http://x.test/', { method: 'POST', body: new Uint8Array([0x61]) }), 1024))).toEqual([
      415,
      'unsupported_media_type',
      message,
    ]);
  });

  it('413 past the cap', async () => {
    expect((await refusal(readFormOrJson(post(`{"a":"${'x'.repeat(100)}"}`, 'application/json'), 50)))[0]).toBe(413);
  });
});

describe('readValidBody', () => {
  const schema = v.object({ email: v.pipe(v.string('must be text'), v.email('must be an e-mail address')), tier: v.optional(v.string()) });

  it('the schema’s output', async () => {
    expect(await readValidBody(post('{"email":"a@b.co"}', 'application/json'), schema, 1024)).toEqual({ email: 'a@b.co' });
  });

  it('400 invalid_body with one detail per issue, by field', async () => {
    expect(await refusal(readValidBody(post('email=nope&tier=x', 'application/x-www-form-urlencoded'), schema, 1024))).toEqual([
      400,
      'invalid_body',
      [{ path: 'email', message: 'must be an e-mail address' }],
    ]);
  });
});
