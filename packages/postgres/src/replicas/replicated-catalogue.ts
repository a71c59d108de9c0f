/**
 * The Catalogue port over a primary and its read replicas (DATABASE_REPLICA_URLS): every
 * catalogue read goes to a replica that is healthy and has replayed the last import (see
 * replica-set.ts), the next one if it fails with a lost connection, the primary when none
 * serves. A read is one Catalogue call: all its queries run on the one database it picked, so
 * a dossier never mixes two replicas' states. Each pool keeps its own backstops (144 in
 * flight, statement timeout, no cancel on abort). Accounts never come here: key checks,
 * usage and billing read the primary, so a revocation or a tier flip is never read stale.
 */
import type { Catalogue, Logger } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { BackstopOptions } from '../backstops.js';
import { createPostgresCatalogue } from '../catalogue/index.js';
import type { RecordCache } from '../catalogue/record-cache.js';
import type { PrefixHint } from '../catalogue/search.js';
import { type CatalogueGeneration, watchCatalogueGeneration } from './catalogue-generation.js';
import { ReplicaSet, type ReplicaSetOptions, type ReplicaStatus } from './replica-set.js';

export interface ReplicatedCatalogueOptions extends BackstopOptions, ReplicaSetOptions {
  /** Fallback poll of the primary's generation, in case a notification was missed (default 5 s). */
  generationPollMs?: number;
  logger?: Logger;
  /** The primary's generation watcher, when the caller already has one (it is closed by its owner). */
  generation?: CatalogueGeneration;
  /** Master records kept in process until the next import, shared by every pool's reads. */
  recordCache?: RecordCache;
  /** The process's filter of the vocabulary (catalogue/vocabulary-hint.ts), shared by every pool's searches. */
  vocabularyHint?: PrefixHint;
}

export interface ReplicatedCatalogue {
  catalogue: Catalogue;
  generation: CatalogueGeneration;
  /** Each replica: healthy, and how far behind the last import. */
  status(): ReplicaStatus[];
  /** Resolves once the primary has told the current generation (reads use the primary until then). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function createReplicatedCatalogue(
  primary: Sql,
  replicas: ReadonlyArray<{ name: string; sql: Sql }>,
  options: ReplicatedCatalogueOptions = {},
): ReplicatedCatalogue {
  const owned = options.generation === undefined;
  const generation =
    options.generation ??
    watchCatalogueGeneration(primary, {
      ...(options.generationPollMs ? { pollMs: options.generationPollMs } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
  const onPrimary = createPostgresCatalogue(primary, options);
  const set = new ReplicaSet(
    replicas.map((replica) => ({ ...replica, target: createPostgresCatalogue(replica.sql, options) })),
    onPrimary,
    generation,
    options,
  );
  const catalogue = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(onPrimary)) {
    if (typeof method !== 'function') continue;
    catalogue[name] = (...args: unknown[]) => set.run((target) => (target[name as keyof Catalogue] as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  return {
    catalogue: catalogue as unknown as Catalogue,
    generation,
    status: () => set.status(),
    ready: generation.ready,
    async close() {
      await set.close();
      if (owned) await generation.close();
    },
  };
}
