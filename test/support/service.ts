import { createTestService, type TestServiceOptions } from '@catalogue/core/memory';
import { expect } from 'vitest';
import { fixtureData } from './fixture-data.js';

export function setup(options: TestServiceOptions = {}) {
  return createTestService({ data: fixtureData(), ...options });
}

/** Asserts the spec's error shape: status, code, JSON body, no-store, request id. */
export async function expectError(response: Response, status: number, code: string): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, error: body.error }).toEqual({ status, error: code });
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/);
  expect(response.headers.get('content-type')).toContain('application/json');
  return body;
}
