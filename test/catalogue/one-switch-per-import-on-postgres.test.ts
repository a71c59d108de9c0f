/**
 * One switch per import (issue 29, part 2): every catalogue read changes from the catalogue
 * before an import to the one after it at one moment. A reader polls search, the master
 * dossier, the master record and resolve in one loop from before the import starts until after
 * finish() ends; each read says which catalogue it saw (the master's old or new title, the
 * artist's old or new name). Read in order, the reads switch once: every read before some
 * moment saw the old catalogue and every read after it the new one, so no read after one that
 * saw the new catalogue sees the old, and no iteration mixes them, but the one iteration the
 * switch falls in (its first reads before it, the rest after: separate reads cannot all be
 * before or after an instant that falls between them). Before the fix a dossier and
 * resolve saw the new catalogue as soon as the loaded files were applied (seconds before
 * finish() ended), search only once finish() swapped the documents in, and a kept master
 * record only once the generation advanced.
 *
 * On PostgreSQL through the real importer (the CLI's bulk path over the 1,000-record Discogs
 * samples), with the host's record cache; on PGlite through the writer's row batches and
 * finish().
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Catalogue, MasterRow } from '@catalogue/core';
import {
  type CatalogueGeneration,
  createPostgresCatalogue,
  createPostgresWriter,
  type GenerationState,
  RecordCache,
  watchCatalogueGeneration,
} from '@catalogue/postgres';
import type { Sql } from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../packages/importer/src/cli/run-cli.js';
import { discogsSample } from '../../packages/importer/src/test-support/paths.js';
import { createPgliteDatabase, createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';
import { fixtureData } from '../support/fixture-data.js';

type Seen = 'old' | 'new' | 'missing';

interface Probe {
  masterId: number;
  oldTitle: string;
  newTitle: string;
  /** An artist (Discogs id) whose name the same import changes, read through resolve. */
  artistId: number;
  oldName: string;
  newName: string;
}

const seenOf = (value: string | undefined, oldValue: string, newValue: string): Seen => (value === newValue ? 'new' : value === oldValue ? 'old' : 'missing');

/** One loop iteration: what search, the dossier, the master and resolve each saw. */
async function readAll(catalogue: Catalogue, probe: Probe): Promise<Record<string, Seen>> {
  const hits = await catalogue.search({ q: probe.oldTitle, type: 'master', filters: {}, limit: 20, after: null });
  const hit = hits.find((candidate) => candidate.id === probe.masterId);
  const dossier = await catalogue.masterDossier(probe.masterId);
  const master = await catalogue.master(probe.masterId);
  const resolved = await catalogue.resolve({ by: 'discogs', kind: 'artist', id: probe.artistId });
  return {
    search: seenOf(hit?.name, probe.oldTitle, probe.newTitle),
    dossier: seenOf(dossier?.master.title, probe.oldTitle, probe.newTitle),
    master: seenOf(master?.title, probe.oldTitle, probe.newTitle),
    resolve: seenOf(resolved?.name, probe.oldName, probe.newName),
  };
}

interface PollResult {
  polls: number;
  /** Polls made while the import ran (from its start to finish()'s end). */
  during: number;
  old: number;
  new: number;
  /** Reads, in the order made, that saw the old catalogue after one saw the new (a few kept). */
  backwards: string[];
  backwardsCount: number;
  /** Iterations that saw both catalogues (at most a few kept, for the message). */
  mixed: Array<Record<string, Seen>>;
  mixedCount: number;
  missing: number;
}

/**
 * Polls in one loop while `run` (the import) runs: `before` iterations before it starts and
 * `after` once it ended, so the loop spans the switch.
 */
async function pollAcross(catalogue: Catalogue, probe: Probe, run: () => Promise<void>, options = { before: 100, after: 100 }): Promise<PollResult> {
  const result: PollResult = { polls: 0, during: 0, old: 0, new: 0, backwards: [], backwardsCount: 0, mixed: [], mixedCount: 0, missing: 0 };
  let switched = false;
  const poll = async () => {
    const seen = await readAll(catalogue, probe);
    result.polls++;
    for (const [read, value] of Object.entries(seen)) {
      if (value === 'new') switched = true;
      else if (value === 'old' && switched) {
        result.backwardsCount++;
        if (result.backwards.length < 5) result.backwards.push(`poll ${result.polls}: ${read} old after new (${JSON.stringify(seen)})`);
      }
    }
    const values = new Set(Object.values(seen));
    if (values.has('missing')) result.missing++;
    if (values.has('old') && values.has('new')) {
      result.mixedCount++;
      if (result.mixed.length < 5) result.mixed.push(seen);
    } else if (values.has('new')) result.new++;
    else if (values.has('old')) result.old++;
  };
  for (let i = 0; i < options.before; i++) await poll();
  let done = false;
  const importing = run().finally(() => {
    done = true;
  });
  while (!done) {
    await poll();
    result.during++;
  }
  await importing;
  for (let i = 0; i < options.after; i++) await poll();
  return result;
}

function expectOneSwitch(result: PollResult): void {
  const summary = `${result.polls} polls: ${result.old} old, ${result.new} new, ${result.mixedCount} mixed (${JSON.stringify(result.mixed)}), ${result.backwardsCount} reads old after new (${result.backwards.join('; ')}), ${result.missing} with a record missing`;
  expect(result.backwardsCount, summary).toBe(0);
  // At most the iteration the switch fell in, its reads old then new.
  expect(result.mixedCount, summary).toBeLessThanOrEqual(1);
  expect(result.missing, summary).toBe(0);
  expect(result.old, summary).toBeGreaterThan(0);
  expect(result.new, summary).toBeGreaterThan(0);
}

const databases: TestDatabase[] = [];
const scratch = mkdtempSync(path.join(tmpdir(), 'catalogue-one-switch-'));

afterAll(async () => {
  for (const db of databases) await db.drop();
  rmSync(scratch, { recursive: true, force: true });
});

/** The catalogue's generation polled every 20 ms (what the host's watcher learns by LISTEN). */
function pollGeneration(sql: Sql): Pick<CatalogueGeneration, 'current' | 'onChange'> & { close(): Promise<void> } {
  let state: GenerationState | null = null;
  const listeners: Array<(state: GenerationState) => void> = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const [row] = await sql<Array<{ generation: string }>>`SELECT generation::text AS generation FROM catalogue_state`;
      const generation = Number(row?.generation ?? 0);
      if (!state || generation > state.generation) {
        state = { generation, lsn: 0n };
        for (const listener of listeners) listener(state);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    current: () => state,
    onChange: (listener) => listeners.push(listener),
    async close() {
      stopped = true;
      await loop;
    },
  };
}

/** The sample dump `kind` unzipped with `from` (its first occurrence) replaced by `to`. */
function changedSample(kind: 'artists' | 'masters', from: string, to: string): string {
  const text = execFileSync('gzip', ['-dc', discogsSample(kind)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`${from} is not in the ${kind} sample`);
  const file = path.join(scratch, `${kind}.xml`);
  writeFileSync(file, text.slice(0, at) + to + text.slice(at + from.length));
  return file;
}

/** The master both imports retitle (the samples' and the fixture's master 113). */
const CHANGED_MASTER = { masterId: 113, oldTitle: 'Moments In Time', newTitle: 'Moments In Time Zephyr' } as const;

describe('one switch per import', () => {
  // About 30 s on a quiet machine (two CLI imports); the bound leaves room for a busy one.
  it('on PostgreSQL, through the real bulk import: no poll of search, dossier, master and resolve mixes two catalogues', { timeout: 120_000 }, async () => {
    const db = await createPostgresDatabase({ max: 4 });
    databases.push(db);
    const importFiles = async (files: string[]) => {
      let stderr = '';
      const code = await runCli(['import', 'discogs', ...files], {
        env: { DATABASE_URL: db.url },
        stdout: { write: () => undefined },
        stderr: { write: (chunk: string) => (stderr += chunk) },
      });
      expect(code, stderr).toBe(0);
    };
    // The two kinds the re-import changes (the other two only lengthen both imports).
    await importFiles((['artists', 'masters'] as const).map(discogsSample));

    // The serving composition: the generation watched (LISTEN + poll) and master records kept.
    const generation = watchCatalogueGeneration(db.sql);
    await generation.ready;
    const catalogue = createPostgresCatalogue(db.sql, { recordCache: new RecordCache(generation) });
    try {
      const probe: Probe = {
        ...CHANGED_MASTER,
        artistId: 1,
        oldName: 'The Persuader',
        newName: 'The Persuader Quasar',
      };
      const masters = changedSample('masters', '<title>Moments In Time</title>', `<title>${probe.newTitle}</title>`);
      const artists = changedSample('artists', '<id>1</id><name>The Persuader</name>', `<id>1</id><name>${probe.newName}</name>`);
      const result = await pollAcross(catalogue, probe, () => importFiles([artists, masters]), { before: 300, after: 300 });
      console.log(`PostgreSQL: ${JSON.stringify({ ...result, mixed: result.mixed.slice(0, 2) })}`);
      expectOneSwitch(result);
      // 1,000–1,500 polls during the import on the 2-core machine (fewer when it is busy).
      expect(result.during).toBeGreaterThan(200);
    } finally {
      await generation.close();
    }
  });

  it('on PGlite, through the writer: no poll mixes two catalogues', { timeout: 60_000 }, async () => {
    const db = await createPgliteDatabase();
    databases.push(db);
    const data = fixtureData();
    await loadCatalogue(db, data, null);
    // PGlite serves one connection: the generation is polled on it (no LISTEN connection).
    const generation = pollGeneration(db.sql);
    const catalogue = createPostgresCatalogue(db.sql, { recordCache: new RecordCache(generation) });
    try {
      const probe: Probe = {
        ...CHANGED_MASTER,
        artistId: 3225,
        oldName: 'Vince Watson',
        newName: 'Vince Watson Quasar',
      };
      const master = data.masters.find((row) => row.master_id === probe.masterId) as MasterRow;
      const artist = data.artists.find((row) => row.discogs_id === probe.artistId);
      if (!artist) throw new Error('the fixture has no artist 3225');
      const writer = createPostgresWriter(db.sql, { staging: db.staging });
      const result = await pollAcross(
        catalogue,
        probe,
        async () => {
          await writer.writeMasters([{ ...master, title: probe.newTitle }]);
          await writer.writeArtists([{ ...artist, name: probe.newName }]);
          // Room for reads between the batches and finish(), as an import's parsing leaves.
          await new Promise((resolve) => setTimeout(resolve, 300));
          await writer.finish();
        },
        { before: 50, after: 50 },
      );
      console.log(`PGlite: ${JSON.stringify({ ...result, mixed: result.mixed.slice(0, 2) })}`);
      expectOneSwitch(result);
    } finally {
      await generation.close();
    }
  });
});
