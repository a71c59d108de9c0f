/** Rejects when `work` has not settled within `ms`; the store call itself may still land later. */
export class StoreTimeoutError extends Error {
  constructor(ms: number) {
    super(`rate-limit store did not answer within ${ms} ms`);
    this.name = 'StoreTimeoutError';
  }
}

export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError(ms)), ms);
  });
  // A late rejection of `work` after the timeout must not surface as unhandled.
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
