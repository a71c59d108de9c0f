/** What a worker of the Node host tells its primary over the cluster's IPC channel. */

/** Sent once the worker's server listens: the primary prints the banner once every worker has. */
export interface WorkerListening {
  kind: 'catalogue.worker_listening';
  url: string;
  /** The storage and limiter as the banner describes them (HostedService). */
  storage: string;
  limiter: string;
}

export function isWorkerListening(message: unknown): message is WorkerListening {
  return typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === 'catalogue.worker_listening';
}

/**
 * The environment variable the primary sets on each fork: the worker's slot, 0 to N−1. Slot 0
 * runs the whole of runJobs, the others only their limiter's part (worker.ts). Not
 * configuration: the primary's word to its workers.
 */
export const WORKER_SLOT_VARIABLE = 'CATALOGUE_WORKER_SLOT';
