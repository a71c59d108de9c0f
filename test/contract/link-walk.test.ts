/**
 * The link walk (issue 12 item 3): "every id the API hands out resolves". From the answers a
 * new user reads first — search (the README's curl among them), breakouts, tastemakers and
 * ones-to-watch, the README's master 113 and its wayfind — on v1 and v2, every `_links` URL,
 * every `cluster_id`, every agent `slug` and wayfind's `to` is followed one level deep, and
 * each must answer 200 with the resource it names (issue 32): a master's dossier link that
 * master's dossier, an artist link that artist, a wayfind `to` the master at its pointer; a
 * link whose subject the walk does not know fails too. Run on the generated demo (memory), on the Discogs samples (memory and
 * PostgreSQL) and on a catalogue imported from the samples' masters file alone (PostgreSQL
 * and memory): a credited artist with no row of its own is a stub agent (docs/decisions.md §5).
 */
import { join } from 'node:path';
import { type CatalogueData, createService, emptyCatalogueData, issueCustomerKey, kindOfClusterId } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { createPostgresCatalogue, createPostgresWriter, migrate } from '@catalogue/postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { openInputFile } from '../../packages/importer/src/cli/open-input-file.js';
import { parseDiscogs } from '../../packages/importer/src/discogs/index.js';
import { generateCatalogue } from '../../packages/importer/src/generate/generate.js';
import { loadSampleCatalogue, sampleFiles, writeCatalogue } from '../../packages/importer/src/seed/sample-demo.js';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';

const SAMPLES = join(import.meta.dirname, '../../data/discogs');
const ORIGIN = 'http://walk.test';

type Fetch = (path: string) => Promise<Response>;

async function serviceOn(catalogue: Parameters<typeof createService>[0]['catalogue']): Promise<Fetch> {
  const accounts = createMemoryAccounts();
  const service = createService({ catalogue, accounts, limiter: createMemoryLimiter(), logger: { log() {} } }, { baseUrl: ORIGIN });
  const { plaintext } = await issueCustomerKey(
    accounts,
    {
      email: 'walk@example.com',
      tier: 'contract_2000',
      environment: 'test',
      limits: { burst_per_minute: 1_000_000, concurrency: 100, quota_per_month: 100_000_000 },
    },
    new Date(),
  );
  return (path) => service.fetch(new Request(ORIGIN + path, { headers: { 'x-api-key': plaintext } }));
}

/**
 * What a target must answer to be the right resource, not only a 200: each expectation reads
 * the answer (a master's dossier link answers that master's dossier, an artist link that
 * artist, a wayfind `to` the master at its pointer).
 */
interface Expectation {
  what: string;
  holds(answer: Record<string, unknown>): boolean;
}

type Targets = Map<string, Expectation[]>;

function expectAt(targets: Targets, target: string, expectation: Expectation): void {
  const list = targets.get(target) ?? [];
  if (!list.some((known) => known.what === expectation.what)) list.push(expectation);
  targets.set(target, list);
}

const at = (answer: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, step) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined), answer);

function is(pointer: string, value: unknown): Expectation {
  return { what: `${pointer} = ${JSON.stringify(value)}`, holds: (answer) => at(answer, pointer) === value };
}

function all(...expectations: Expectation[]): Expectation {
  return { what: expectations.map((e) => e.what).join(', '), holds: (answer) => expectations.every((e) => e.holds(answer)) };
}

/** The agent with this cluster id (and kind, and slug when known). */
function agent(clusterId: number, kind: string | null, slug: unknown): Expectation {
  const parts = [is('/cluster_id', clusterId)];
  if (kind) parts.push(is('/kind', kind));
  if (typeof slug === 'string') parts.push(is('/slug', slug));
  return all(...parts);
}

/** What each `_links` member of a node must answer, by the node it sits on. */
function linkExpectation(node: Record<string, unknown>, key: string, kind: string | null): Expectation | null {
  const master = node.master as Record<string, unknown> | undefined;
  if (master && typeof master.master_id === 'number' && Array.isArray(node.releases)) {
    // a master dossier: self is this dossier, master is its record
    if (key === 'self') return is('/master/master_id', master.master_id);
    if (key === 'master') return all(is('/master_id', master.master_id), { what: 'a record (no /master)', holds: (a) => a.master === undefined });
    return null;
  }
  const masterId = typeof node.master_id === 'number' ? node.master_id : node.type === 'master' && typeof node.id === 'number' ? node.id : null;
  if (masterId !== null) {
    if (key === 'self') return all(is('/master_id', masterId), { what: 'a record (no /master)', holds: (a) => a.master === undefined });
    if (key === 'dossier') return all(is('/master/master_id', masterId), { what: 'releases', holds: (a) => Array.isArray(a.releases) });
    if (key === 'artist') {
      // v2: the master's main artist, whose discography holds it
      const credited = ((node.credits ?? node.artists) as Array<{ cluster_id?: number }>).map((ref) => ref.cluster_id);
      return {
        what: `an artist credited on master ${masterId} (${credited.join(', ')})`,
        holds: (a) => a.kind === 'artist' && credited.includes(a.cluster_id as number),
      };
    }
    return null;
  }
  const clusterId = typeof node.cluster_id === 'number' ? node.cluster_id : typeof node.id === 'number' && kind ? node.id : null;
  if (clusterId === null) return null;
  if (key === 'self' || key === 'dossier') return agent(clusterId, kind ?? kindOfClusterId(clusterId), node.slug);
  if (key === 'bandcamp') {
    const signals = (a: Record<string, unknown>) => (a.bandcamp ?? a) as Record<string, unknown>;
    return { what: `Bandcamp signals of ${clusterId}`, holds: (a) => signals(a).cluster_id === clusterId && typeof signals(a).url === 'string' };
  }
  return null;
}

/** Where an answer points — its `_links`, cluster ids, agent slugs and wayfind's `to` — and what each must answer. */
function targetsOf(body: unknown, base: string, out: Targets): void {
  if (Array.isArray(body)) {
    for (const item of body) targetsOf(item, base, out);
    return;
  }
  if (!body || typeof body !== 'object') return;
  const node = body as Record<string, unknown>;
  let kind: string | null = null;
  if (typeof node.cluster_id === 'number') {
    kind = kindOfClusterId(node.cluster_id);
    if (kind === 'artist' || kind === 'label') expectAt(out, `${base}/${kind}/${node.cluster_id}`, agent(node.cluster_id, kind, node.slug));
  } else if (typeof node.type === 'string' && node.type !== 'master' && typeof node.id === 'number') {
    kind = node.type;
  } else if (typeof node.kind === 'string' && ['artist', 'label', 'festival'].includes(node.kind)) {
    kind = node.kind;
  }
  const clusterId = (node.cluster_id ?? node.id) as number;
  if (kind && typeof node.slug === 'string') expectAt(out, `${base}/dossier/${kind}/${node.slug}`, agent(clusterId, kind, node.slug));
  if (kind && node.slug === null) expectAt(out, `null slug of ${kind} ${String(clusterId)}`, { what: 'a slug', holds: () => false });
  if (typeof node.to === 'string' && node.to.startsWith('/api/')) {
    // wayfind: the master sits at its pointer in the answer of `to`
    expectAt(out, node.to, is(`${String(node.pointer)}/master_id`, node.master_id));
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === '_links' && value && typeof value === 'object') {
      for (const [rel, url] of Object.entries(value)) {
        if (typeof url !== 'string') continue;
        const target = url.startsWith(ORIGIN) ? url.slice(ORIGIN.length) : url;
        expectAt(out, target, linkExpectation(node, rel, kind) ?? { what: `a known subject for _links.${rel}`, holds: () => false });
      }
    } else {
      targetsOf(value, base, out);
    }
  }
}

interface WalkResult {
  starts: number;
  followed: number;
  failures: string[];
}

async function walk(fetch: Fetch, masterId: number | null): Promise<WalkResult> {
  const failures: string[] = [];
  const starts: string[] = [];
  for (const base of ['/api/v1', '/api/v2']) {
    starts.push(
      `${base}/search?q=house&limit=3`,
      `${base}/search?limit=100`,
      `${base}/search?type=artist&limit=100`,
      `${base}/search?type=label&limit=100`,
      `${base}/search?type=festival&limit=20`,
      `${base}/breakouts?window=30d`,
      `${base}/breakouts?window=90d`,
      `${base}/tastemakers`,
      `${base}/tastemakers/ones-to-watch`,
    );
    if (masterId !== null) starts.push(`${base}/resolve?discogs=master/${masterId}`);
  }
  if (masterId !== null) starts.push(`/api/v1/masters/${masterId}`, `/api/v1/dossier/master/${masterId}`, `/api/v1/wayfind/master/${masterId}`);
  const answers: Array<{ path: string; body: unknown }> = [];
  for (const path of starts) {
    const response = await fetch(path);
    if (response.status !== 200) failures.push(`start ${path} → ${response.status}`);
    answers.push({ path, body: await response.json() });
  }
  // Every master a search answer lists: its wayfind answer, whose `to` is followed too.
  const masters = new Set<number>();
  for (const { path, body } of answers) {
    if (!path.includes('/search')) continue;
    for (const hit of (body as { hits?: Array<{ type: string; id: number }> }).hits ?? []) if (hit.type === 'master') masters.add(hit.id);
  }
  for (const id of [...masters].slice(0, 40)) {
    const path = `/api/v1/wayfind/master/${id}`;
    const response = await fetch(path);
    if (response.status !== 200) failures.push(`start ${path} → ${response.status}`);
    answers.push({ path, body: await response.json() });
  }
  const expectations = new Map<string, { from: string; expected: Expectation[] }>();
  for (const { path, body } of answers) {
    const out: Targets = new Map();
    targetsOf(body, path.startsWith('/api/v2') ? '/api/v2' : '/api/v1', out);
    for (const [target, expected] of out) {
      const known = expectations.get(target) ?? { from: path, expected: [] };
      for (const e of expected) if (!known.expected.some((k) => k.what === e.what)) known.expected.push(e);
      expectations.set(target, known);
    }
  }
  for (const [target, { from, expected }] of expectations) {
    if (target.startsWith('null slug')) {
      failures.push(`${target} in ${from}`);
      continue;
    }
    const response = await fetch(target);
    if (response.status !== 200) {
      failures.push(`${target} → ${response.status} (from ${from})`);
      await response.body?.cancel();
      continue;
    }
    const answer = (await response.json()) as Record<string, unknown>;
    for (const e of expected) if (!e.holds(answer)) failures.push(`${target} (from ${from}) is not the resource linked: expected ${e.what}`);
  }
  return { starts: answers.length, followed: expectations.size, failures };
}

async function mastersFileAlone(): Promise<CatalogueData> {
  const data = emptyCatalogueData();
  const [file] = (await sampleFiles(SAMPLES)).filter((path) => path.includes('masters'));
  const input = await openInputFile(file as string);
  for await (const batch of parseDiscogs(input.chunks, undefined, { source: file as string })) (data[batch.kind] as unknown[]).push(...batch.rows);
  return data;
}

const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
});

async function onPostgres(data: CatalogueData): Promise<Fetch> {
  const db = await createPostgresDatabase();
  databases.push(db);
  await migrate(db.sql);
  await writeCatalogue(data, createPostgresWriter(db.sql, { staging: db.staging }));
  return serviceOn(createPostgresCatalogue(db.sql));
}

function expectAllResolve(result: WalkResult): void {
  expect(result.failures).toEqual([]);
  // the walk did walk: artists, labels, masters and their links
  expect(result.followed).toBeGreaterThan(100);
}

describe('the link walk: every id and link an answer hands out answers 200 with the resource it names', () => {
  it('the generated demo catalogue (memory)', async () => {
    const fetch = await serviceOn(createMemoryCatalogue(generateCatalogue()));
    expectAllResolve(await walk(fetch, null));
  });

  it('the Discogs samples, as npm start serves them (memory and PostgreSQL), from the README master 113', async () => {
    const data = await loadSampleCatalogue(SAMPLES);
    expectAllResolve(await walk(await serviceOn(createMemoryCatalogue(data)), 113));
    expectAllResolve(await walk(await onPostgres(data), 113));
  }, 240_000);

  it('a catalogue imported from the masters file alone (memory and PostgreSQL)', async () => {
    const data = await mastersFileAlone();
    expect(data.artists).toHaveLength(0);
    const memory = await serviceOn(createMemoryCatalogue(data));
    expectAllResolve(await walk(memory, 113));
    const postgres = await onPostgres(data);
    expectAllResolve(await walk(postgres, 113));
    // resolve?discogs=<credited artist id> answers the artist (the issue's acceptance)
    const credit = data.masters.find((master) => master.master_id === 113)?.artists[0];
    const resolved = await postgres(`/api/v2/resolve?discogs=${credit?.discogs_id}`);
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toMatchObject({ cluster_id: (credit?.discogs_id as number) * 4 + 1, name: credit?.name });
  }, 240_000);
});
