import { describe, expect, it } from 'vitest';
import { capRequestBody } from './body-limit.js';

describe('the shared host pieces', () => {
  it('counts a body without Content-Length and fails it past the cap with payload_too_large', async () => {
    const chunks = [new Uint8Array(600), new Uint8Array(600)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const capped = capRequestBody(new Request('http://h/x', { method: 'POST', body, duplex: 'half' } as RequestInit), 1000);
    expect(capped).toBeInstanceOf(Request);
    await expect((capped as Request).arrayBuffer()).rejects.toMatchObject({ status: 413, code: 'payload_too_large', body: { max_bytes: 1000 } });
    const declared = capRequestBody(new Request('http://h/x', { method: 'POST', body: 'x', headers: { 'content-length': '5000' } }), 1000);
    expect(declared).toBeInstanceOf(Response);
    expect(await (declared as Response).json()).toEqual({
      error: 'payload_too_large',
      message: expect.any(String),
      max_bytes: 1000,
      request_id: (declared as Response).headers.get('x-request-id'),
    });
  });
});
