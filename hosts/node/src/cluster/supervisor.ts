/**
 * The Node host's primary keeps WEB_CONCURRENCY workers running (node:cluster): it forks one per
 * slot, learns when each listens, forks a replacement for one that dies unexpectedly (after the
 * back-off of restart-delay.ts, each death logged), and at shutdown signals every worker and
 * waits, bounded, for all to exit.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@catalogue/core';
import { isWorkerListening, WORKER_SLOT_VARIABLE, type WorkerListening } from './messages.js';
import { quickDeathsAfter, restartDelayMs } from './restart-delay.js';

export interface WorkerSupervisor {
  /** Every slot's first worker listening; rejects when one exits before it listens (the start failed). */
  started: Promise<WorkerListening[]>;
  /**
   * SIGTERM to every worker (no more restarts), then wait up to `waitMs` for all to exit; a
   * worker still running then is killed. True when every worker closed cleanly (exit 0).
   */
  stop(waitMs: number): Promise<boolean>;
}

interface Exit {
  code: number | null;
  signal: string | null;
}

interface Slot {
  index: number;
  worker: Worker | null;
  forkedAt: number;
  listening: boolean;
  exited: Promise<Exit>;
  quickDeaths: number;
  restart: ReturnType<typeof setTimeout> | null;
}

export function superviseWorkers(count: number, logger: Logger): WorkerSupervisor {
  let phase: 'starting' | 'serving' | 'stopping' = 'starting';
  const firstListening = new Map<number, WorkerListening>();
  let started!: { resolve(listening: WorkerListening[]): void; reject(error: Error): void };
  const startedPromise = new Promise<WorkerListening[]>((resolve, reject) => {
    started = { resolve, reject };
  });
  const slots: Slot[] = Array.from({ length: count }, (_, index) => ({
    index,
    worker: null,
    forkedAt: 0,
    listening: false,
    exited: Promise.resolve({ code: 0, signal: null }),
    quickDeaths: 0,
    restart: null,
  }));

  const fork = (slot: Slot) => {
    const worker = cluster.fork({ [WORKER_SLOT_VARIABLE]: String(slot.index) });
    Object.assign(slot, { worker, forkedAt: Date.now(), listening: false });
    slot.exited = new Promise<Exit>((resolve) => worker.once('exit', (code, signal) => resolve({ code, signal })));
    const pid = worker.process.pid;
    logger.log({ level: 'info', kind: 'cluster.worker_forked', slot: slot.index, worker_pid: pid });
    worker.on('error', (error) => logger.log({ level: 'warn', kind: 'cluster.worker_channel', worker_pid: pid, error: error.message }));
    worker.on('message', (message: unknown) => {
      if (!isWorkerListening(message)) return;
      slot.listening = true;
      if (phase !== 'starting') return logger.log({ level: 'info', kind: 'cluster.worker_listening', slot: slot.index, worker_pid: pid });
      firstListening.set(slot.index, message);
      if (firstListening.size < count) return;
      phase = 'serving';
      started.resolve(slots.map((s) => firstListening.get(s.index) as WorkerListening));
    });
    void slot.exited.then((exit) => exited(slot, worker, exit));
  };

  const exited = (slot: Slot, worker: Worker, exit: Exit) => {
    if (phase === 'stopping' || slot.worker !== worker) return; // stop() collects these exits itself
    const detail = { slot: slot.index, worker_pid: worker.process.pid, code: exit.code, signal: exit.signal };
    if (phase === 'starting') {
      // As a single process whose start fails: no banner, no demo key, exit 1 (docs/decisions.md §1).
      started.reject(new Error(`worker ${worker.process.pid} exited (${exit.signal ?? `code ${exit.code}`}) before it listened: the start failed`));
      return;
    }
    slot.quickDeaths = quickDeathsAfter(slot.quickDeaths, Date.now() - slot.forkedAt);
    const delay = restartDelayMs(slot.quickDeaths);
    logger.log({ level: 'error', kind: 'cluster.worker_died', ...detail, restart_in_ms: delay });
    slot.restart = setTimeout(() => {
      slot.restart = null;
      if (phase !== 'stopping') fork(slot);
    }, delay);
  };

  for (const slot of slots) fork(slot);

  return {
    started: startedPromise,
    async stop(waitMs) {
      phase = 'stopping';
      const live = slots.filter((slot) => {
        if (slot.restart) clearTimeout(slot.restart);
        return slot.worker !== null && !slot.worker.isDead();
      });
      for (const slot of live) slot.worker?.process.kill('SIGTERM');
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), waitMs).unref());
      const outcomes = await Promise.all(
        live.map(async (slot) => {
          const exit = await Promise.race([slot.exited, timeout]);
          if (exit === 'timeout') {
            slot.worker?.process.kill('SIGKILL');
            logger.log({ level: 'error', kind: 'cluster.worker_killed', slot: slot.index, worker_pid: slot.worker?.process.pid, after_ms: waitMs });
            return false;
          }
          // A worker signalled before it listened had admitted no call: nothing of it to make durable.
          const clean = exit.code === 0 || (!slot.listening && exit.signal === 'SIGTERM');
          if (!clean) logger.log({ level: 'error', kind: 'cluster.worker_failed', slot: slot.index, worker_pid: slot.worker?.process.pid, ...exit });
          return clean;
        }),
      );
      return outcomes.every(Boolean);
    },
  };
}
