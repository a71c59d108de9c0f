import { describe, expect, it } from 'vitest';
import { createManualClock } from '../memory/manual-clock.js';
import type { Probe } from '../ports/index.js';
import { FAIL_OPEN_NOT_READY_MS, FailOpenWatch, withFailOpenCheck } from './fail-open-watch.js';

const SECOND = 1_000;

function watched() {
  const clock = createManualClock();
  const alarms: Array<{ kind: string; detail: Record<string, unknown> }> = [];
  const watch = new FailOpenWatch(clock, { raise: (kind, detail) => alarms.push({ kind, detail }) });
  /** Records a fail-open; whether the rule now holds. */
  const failOpen = () => {
    watch.failedOpen();
    return watch.failingOpen();
  };
  return { clock, watch, alarms, failOpen };
}

/** Fail-opens half a window apart for a whole window: the watch then holds. */
function streak({ clock, failOpen }: ReturnType<typeof watched>): boolean {
  failOpen();
  clock.advance(FAIL_OPEN_NOT_READY_MS / 2);
  failOpen();
  clock.advance(FAIL_OPEN_NOT_READY_MS / 2);
  return failOpen();
}

describe('FailOpenWatch: key-limit decisions failing open persistently', () => {
  it('holds once fail-opens, with no decision between them, have lasted the window', () => {
    const { clock, watch, alarms, failOpen } = watched();
    expect(FAIL_OPEN_NOT_READY_MS).toBe(5 * SECOND);
    const start = clock.now();
    expect(failOpen()).toBe(false);
    for (let i = 0; i < 4; i++) {
      clock.advance(SECOND);
      expect(failOpen()).toBe(false);
    }
    clock.advance(SECOND - 1);
    expect(watch.failingOpen()).toBe(false);
    expect(alarms).toEqual([]);
    clock.advance(1);
    expect(watch.failingOpen()).toBe(true);
    expect(failOpen()).toBe(true);
    expect(alarms).toEqual([{ kind: 'ratelimit.failing_open', detail: { since: new Date(start).toISOString(), not_ready_after_ms: FAIL_OPEN_NOT_READY_MS } }]);
  });

  it('one decision ends it at once', () => {
    const t = watched();
    expect(streak(t)).toBe(true);
    t.watch.decided();
    expect(t.watch.failingOpen()).toBe(false);
    expect(t.failOpen()).toBe(false);
  });

  it('ends when no fail-open came for the window, and a fail-open after such a quiet spell starts a new streak', () => {
    const t = watched();
    const { clock, watch, failOpen } = t;
    expect(streak(t)).toBe(true);
    clock.advance(FAIL_OPEN_NOT_READY_MS - 1);
    expect(watch.failingOpen()).toBe(true);
    clock.advance(1);
    expect(watch.failingOpen()).toBe(false);
    // The new streak needs a whole window of its own.
    expect(failOpen()).toBe(false);
    clock.advance(FAIL_OPEN_NOT_READY_MS / 2);
    expect(failOpen()).toBe(false);
    clock.advance(FAIL_OPEN_NOT_READY_MS / 2);
    expect(failOpen()).toBe(true);
  });

  it('isolated fail-opens further apart than the window never hold', () => {
    const { clock, failOpen, alarms } = watched();
    for (let i = 0; i < 5; i++) {
      expect(failOpen()).toBe(false);
      clock.advance(FAIL_OPEN_NOT_READY_MS);
    }
    expect(alarms).toEqual([]);
  });

  it('after a decision, the next fail-open starts a new streak at once, and it holds a window later', () => {
    const t = watched();
    expect(streak(t)).toBe(true);
    t.watch.decided();
    t.clock.advance(SECOND);
    expect(t.failOpen()).toBe(false);
    t.clock.advance(FAIL_OPEN_NOT_READY_MS / 2);
    expect(t.failOpen()).toBe(false);
    t.clock.advance(FAIL_OPEN_NOT_READY_MS / 2);
    expect(t.failOpen()).toBe(true);
  });
});

describe('withFailOpenCheck: one `limits` check', () => {
  const database: Probe = { name: 'database', check: async () => {} };

  it('replaces the limit store’s own check in place, asking it first', async () => {
    const t = watched();
    const { watch, alarms } = t;
    let storeDown = false;
    const store: Probe = {
      name: 'limits',
      check: async () => {
        if (storeDown) throw new Error('limit store unreachable (ECONNREFUSED)');
      },
    };
    const probes = withFailOpenCheck([database, store], watch);
    expect(probes.map((p) => p.name)).toEqual(['database', 'limits']);
    const limits = probes[1] as Probe;
    await expect(limits.check({})).resolves.toBeUndefined();
    streak(t);
    alarms.length = 0;
    // The check alarms too: readiness may notice before the next fail-open does.
    await expect(limits.check({})).rejects.toThrow(/^key-limit decisions fail open/);
    expect(alarms.map((a) => a.kind)).toEqual(['ratelimit.failing_open']);
    storeDown = true;
    await expect(limits.check({})).rejects.toThrow('limit store unreachable (ECONNREFUSED)');
  });

  it('is the whole `limits` check when the store has none', async () => {
    const { watch } = watched();
    const probes = withFailOpenCheck([database], watch);
    expect(probes.map((p) => p.name)).toEqual(['database', 'limits']);
  });
});
