/**
 * What a serving process knows of the catalogue's generation (migration 0008): the number
 * finish() last advanced it to and the WAL position it reached. Learned from the primary at
 * start, from `NOTIFY catalogue_finished` within milliseconds of each import, and by a poll
 * every `pollMs` in case a notification was missed (the listening connection was down).
 */
import type { Logger } from '@catalogue/core';
import type { Sql } from 'postgres';
import { CATALOGUE_FINISHED_CHANNEL } from '../writer/generation.js';
import { parseLsn } from './lsn.js';

export interface GenerationState {
  generation: number;
  /** WAL position of the last finish(); 0 before any (nothing to wait for). */
  lsn: bigint;
}

export interface CatalogueGeneration {
  /** Null until the primary has answered once. */
  current(): GenerationState | null;
  /** Resolves once the primary has answered (or failed) the first read. */
  ready: Promise<void>;
  onChange(listener: (state: GenerationState) => void): void;
  close(): Promise<void>;
}

export function watchCatalogueGeneration(primary: Sql, options: { pollMs?: number; logger?: Logger } = {}): CatalogueGeneration {
  let state: GenerationState | null = null;
  const listeners: Array<(state: GenerationState) => void> = [];
  let closed = false;

  const accept = (generation: number, lsnText: string | null) => {
    const lsn = parseLsn(lsnText) ?? 0n;
    if (state && generation < state.generation) return;
    if (state && generation === state.generation) {
      // finish() records the WAL position past its commit just after it (writer/generation.ts):
      // a poll between the two saw the generation with the position before.
      if (lsn > state.lsn) state = { generation, lsn };
      return;
    }
    state = { generation, lsn };
    for (const listener of listeners) listener(state);
  };

  const poll = async () => {
    try {
      const [row] = await primary<Array<{ generation: string; lsn: string | null }>>`
        SELECT generation::text AS generation, finished_lsn AS lsn FROM catalogue_state`;
      if (row) accept(Number(row.generation), row.lsn);
    } catch (error) {
      options.logger?.log({ level: 'warn', kind: 'replicas.generation_unknown', error: error instanceof Error ? error.message : String(error) });
    }
  };

  const ready = poll();
  const listening = primary
    .listen(CATALOGUE_FINISHED_CHANNEL, (payload) => {
      const [generation, lsn] = payload.split(' ');
      accept(Number(generation), lsn ?? null);
    })
    .catch((error: unknown) => {
      options.logger?.log({ level: 'warn', kind: 'replicas.listen_failed', error: error instanceof Error ? error.message : String(error) });
      return null;
    });
  const timer = setInterval(() => void poll(), options.pollMs ?? 5_000);
  (timer as { unref?: () => void }).unref?.();

  return {
    current: () => state,
    ready,
    onChange: (listener) => listeners.push(listener),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await (await listening)?.unlisten().catch(() => undefined);
    },
  };
}
