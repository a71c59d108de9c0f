/**
 * Work a request leaves running after its answer — the concurrency lease release, usage, the
 * mail hand-off — which the service hands to its `waitUntil`. Every host tracks it the same
 * way, so a graceful close (or, on Lambda, the end of an invocation, before the sandbox
 * freezes) can wait for it.
 */

export interface BackgroundWork {
  /** Pass as the service's `waitUntil` (RequestContextInput). */
  waitUntil(promise: Promise<unknown>): void;
  /** Resolves once every tracked promise has settled, or after `graceMs`, whichever comes first. */
  settle(graceMs: number): Promise<void>;
}

export function backgroundWork(): BackgroundWork {
  const pending = new Set<Promise<unknown>>();
  return {
    waitUntil(promise) {
      pending.add(promise);
      promise.finally(() => pending.delete(promise));
    },
    async settle(graceMs) {
      if (pending.size > 0) await withinGrace(Promise.allSettled([...pending]), graceMs);
    },
  };
}

/** `work`, or nothing more after `graceMs`: a step of a shutdown never hangs it. */
export async function withinGrace(work: Promise<unknown>, graceMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
    (timer as { unref?: () => void }).unref?.();
  });
  try {
    await Promise.race([work.then(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
