/**
 * A client generated from the served openapi.json by tools no one here wrote (openapi-typescript
 * for the types, openapi-fetch for the calls) calls search, resolve and the v2 artist route.
 * The client file is type-checked with tsc (including lines that must NOT compile) and then
 * run against the service.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { setup } from '../support/service.js';
import { documentsOf } from './support.js';

const here = dirname(fileURLToPath(import.meta.url));
// Inside the repository so `openapi-fetch` resolves from its node_modules; removed afterwards.
const dir = join(here, `.generated-client-${process.pid}`);
const tsc = join(here, '../../node_modules/typescript/bin/tsc');

const CLIENT = `import createClient from 'openapi-fetch';
import type { components, paths as V1 } from './v1';
import type { paths as V2 } from './v2';

export async function run(baseUrl: string, key: string, fetch: (request: Request) => Promise<Response>) {
  const v1 = createClient<V1>({ baseUrl, fetch, headers: { 'X-API-Key': key } });
  const v2 = createClient<V2>({ baseUrl, fetch, headers: { 'X-API-Key': key } });

  const search = await v1.GET('/api/v1/search', { params: { query: { q: 'moments', limit: 5 } } });
  if (!search.data) throw new Error('search failed');
  const hitNames: string[] = search.data.hits.map((hit) => hit.name);
  const beaconToken: string | null = search.data.beacon_token;
  const searchId: string = search.data.search_id;

  const resolved = await v2.GET('/api/v2/resolve', { params: { query: { q: 'Marla Vance' } } });
  if (!resolved.data) throw new Error('resolve failed');
  const clusterId: number = resolved.data.cluster_id;

  const artist = await v2.GET('/api/v2/artist/{key}', { params: { path: { key: String(clusterId) }, query: { fields: 'identity,discography' } } });
  if (!artist.data) throw new Error('artist failed');
  const realName: string | null | undefined = artist.data.identity?.real_name;
  const masterTitles: string[] = (artist.data.discography?.masters ?? []).map((m) => m.master.title);
  const releaseIds: number[] = (artist.data.discography?.masters ?? []).flatMap((m) => m.releases.map((r) => r.release_id));

  const missing = await v2.GET('/api/v2/artist/{key}', { params: { path: { key: 'no-such-artist' } } });
  const missingCode: string | undefined = missing.error?.error;

  // @ts-expect-error v2 has no master route, so the generated client refuses the path.
  await v2.GET('/api/v2/masters/{id}', { params: { path: { id: 113 } } });
  // @ts-expect-error fields is a query parameter of the artist route only.
  await v2.GET('/api/v2/resolve', { params: { query: { fields: 'identity' } } });
  // @ts-expect-error a cluster_id is a number.
  const wrong: string = resolved.data.cluster_id;
  // @ts-expect-error limit is an integer, not its query text.
  await v1.GET('/api/v1/search', { params: { query: { limit: '5' } } });
  // Records are named components: a Master is a type of its own.
  const master: components['schemas']['Master'] | undefined = (await v1.GET('/api/v1/masters/{id}', { params: { path: { id: 113 } } })).data;
  const masterTitle: string | undefined = master?.title;

  return { hitNames, beaconToken, searchId, clusterId, realName, masterTitles, releaseIds, missingCode, wrong, masterTitle };
}
`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('generated client', () => {
  it('types from openapi.json type-check a client that calls search, resolve and the v2 artist route', async () => {
    const t = setup({ now: '2026-06-29T12:00:00Z', config: { secretKey: '7e'.repeat(32) } });
    const docs = await documentsOf(t);
    mkdirSync(dir, { recursive: true });
    for (const [name, doc] of Object.entries(docs)) {
      writeFileSync(join(dir, `${name}.d.ts`), astToString(await openapiTS(doc as never)));
    }
    writeFileSync(join(dir, 'client.ts'), CLIENT);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['client.ts'],
      }),
    );
    // Fails on any type error, and on any @ts-expect-error line that unexpectedly compiles.
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');

    const key = await t.issueKey({ tier: 'contract_2000' });
    const client = (await import(pathToFileURL(join(dir, 'client.ts')).href)) as {
      run(baseUrl: string, key: string, fetch: (r: Request) => Promise<Response>): Promise<Record<string, unknown>>;
    };
    const result = await client.run('http://catalogue.test', key, (request) => t.service.fetch(request));
    expect(result).toMatchObject({
      hitNames: ['Moments In Time'],
      searchId: expect.stringMatching(/^srch_/),
      beaconToken: expect.stringMatching(/^bt1\./),
      masterTitles: expect.arrayContaining(['Velvet Hours', 'Night Drive']),
      releaseIds: expect.arrayContaining([900, 901]),
      missingCode: 'not_found',
      masterTitle: 'Moments In Time',
    });
    expect(result.clusterId).toBeTypeOf('number');
  });
});
