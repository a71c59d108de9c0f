/**
 * The store's time limit on each runtime's own event loop (with-timeout.ts, "After an I/O poll"):
 * a reply that reached the socket in time while the poll phase was busy serving a request is
 * taken, in Node, Bun and Deno. Bun and Deno run an immediate that a timer queues before their
 * next poll; judged there, the Bun host failed open in the Redis Cluster fleet test while Redis
 * answered (CI, 2026-11-28). Against the shared Redis on 6379 (busy-poll-main.ts).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../hosts/process-host.js';

const SCRIPT = join(ROOT, 'test/limits/busy-poll-main.ts');
const BIN = join(ROOT, 'node_modules/.bin');
const COMMANDS = {
  node: [process.execPath, ['--import', 'tsx', SCRIPT]],
  bun: [join(BIN, 'bun'), [SCRIPT]],
  deno: [join(BIN, 'deno'), ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', SCRIPT]],
} as const;

describe.each(Object.keys(COMMANDS) as Array<keyof typeof COMMANDS>)('the store time limit on %s', (runtime) => {
  it('takes a reply read after a busy poll phase, and still times out a call never answered', () => {
    const [command, args] = COMMANDS[runtime];
    const run = spawnSync(command, args, {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: '1', REDIS_PORT: '6379', TIME_LIMIT_MODULE: join(ROOT, 'packages/upstash/src/with-timeout.ts') },
    });
    expect(run.status, run.stderr).toBe(0);
    const outcomes = JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as Array<{ answered: string; unanswered: string }>;
    expect(outcomes).toHaveLength(20);
    expect(outcomes.filter((o) => o.answered !== 'ok')).toEqual([]);
    expect(outcomes.every((o) => o.unanswered === 'StoreTimeoutError')).toBe(true);
  });
});
