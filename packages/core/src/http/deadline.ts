import { ApiError } from './api-error.js';

export function requestAborted(): ApiError {
  return new ApiError(504, 'request_aborted', { message: 'the request was cancelled by its deadline or by the client' });
}

/**
 * One AbortSignal for the request: fires at the wall-clock deadline or when the client goes
 * away. Ports get the signal so a running database query is cancelled, not abandoned.
 */
export function requestSignal(clientSignal: AbortSignal | undefined, deadlineMs: number): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(requestAborted()), deadlineMs);
  const onClientAbort = () => controller.abort(requestAborted());
  if (clientSignal) {
    if (clientSignal.aborted) onClientAbort();
    else clientSignal.addEventListener('abort', onClientAbort, { once: true });
  }
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      clientSignal?.removeEventListener('abort', onClientAbort);
    },
  };
}

/** Resolves with `work`, or rejects with 504 request_aborted as soon as `signal` fires. */
export function raceSignal<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
