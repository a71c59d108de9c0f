import { createTestService, type TestServiceOptions } from '@catalogue/core/memory';
import { expect } from 'vitest';
import { fixtureData } from './fixture-data.js';

export function setup(options: TestServiceOptions = {}) {
  return createTestService({ data: fixtureData(), ...options });
}

/**
 * Asserts the spec's error shape: status, code, JSON body, no-store, request id; and what every
 * error body carries beside the spec's fields: `message` and `request_id`, the same id as the
 * X-Request-Id header (issue 16 item 5).
 */
export async function expectError(response: Response, status: number, code: string): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, error: body.error }).toEqual({ status, error: code });
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/);
  expect(response.headers.get('content-type')).toContain('application/json');
  expect(typeof body.message === 'string' && body.message.length > 0, `message of ${code}`).toBe(true);
  expect(body.request_id).toBe(response.headers.get('x-request-id'));
  return body;
}
