/** Rejects when `work` has not settled within `ms`; the store call itself may still land later. */
export class StoreTimeoutError extends Error {
  constructor(ms: number) {
    super(`rate-limit store did not answer within ${ms} ms`);
    this.name = 'StoreTimeoutError';
  }
}

/** One promise and one timer per call (it sits on the gate's hot path: no race, no finally). */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreTimeoutError(ms)), ms);
    // A late settlement of `work` after the timeout is observed here, so it never surfaces as unhandled.
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
