import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bufferedLogger } from './buffered-logger.js';

describe('bufferedLogger', () => {
  const dir = mkdtempSync(join(tmpdir(), 'buffered-logger-'));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes consoleLogger's lines: the time, the process's fields, the record with its level once; LOG_LEVEL honoured", async () => {
    const file = join(dir, 'out.log');
    const fd = openSync(file, 'w');
    const logger = bufferedLogger('info', { pid: 42 }, fd);
    logger.log({ level: 'debug', kind: 'hidden' });
    logger.log({ level: 'info', kind: 'http.access', request_id: 'r1', route: null, status: 200, ms: 1.5, gate_ms: null, key_prefix: 'ck_test_abcd' });
    logger.log({ level: 'error', kind: 'boom', error: 'quote " and \n newline' });
    await logger.flush();
    closeSync(fd);
    const text = readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.match(/"level"/g)).toHaveLength(1);
    const [access, boom] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(access).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      pid: 42,
      kind: 'http.access',
      request_id: 'r1',
      route: null,
      status: 200,
      ms: 1.5,
      gate_ms: null,
      key_prefix: 'ck_test_abcd',
    });
    expect(boom).toMatchObject({ level: 'error', kind: 'boom', error: 'quote " and \n newline' });
  });
});
