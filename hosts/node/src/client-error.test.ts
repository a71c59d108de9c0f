/** The statuses of parser refusals: Node's own (lib/_http_server.js), with the contract's codes. */
import { ERRORS } from '@catalogue/core';
import { describe, expect, it } from 'vitest';
import { parserRefusal } from './client-error.js';

describe('parserRefusal', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'payload_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
    ['HPE_INVALID_METHOD', 400, 'bad_request'],
    ['HPE_INVALID_HEADER_TOKEN', 400, 'bad_request'],
    [undefined, 400, 'bad_request'],
  ])('%s → %i %s', (code, status, error) => {
    const refusal = parserRefusal(code);
    expect(refusal).toMatchObject({ status, code: error });
    expect(ERRORS[refusal.code].status).toBe(status);
  });
});
