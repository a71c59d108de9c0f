/**
 * Both OpenAPI documents pass Redocly CLI's lint with the recommended ruleset (redocly.yaml:
 * also every parameter described, every example valid) with no error and no warning, and hold
 * what generated clients need (issue 16 item 6): integers typed `integer` with their bounds,
 * named record schemas, readable operationIds, an example for every response with a body.
 * Redocly runs offline on documents written to a temporary folder.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { setup } from '../support/service.js';
import { documentsOf } from './support.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'catalogue-redocly-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('OpenAPI documents under Redocly', () => {
  it('lint clean with the recommended ruleset: no error, no warning', async () => {
    const docs = await documentsOf(setup());
    const files = Object.entries(docs).map(([name, doc]) => {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(doc, null, 2));
      return file;
    });
    // Telemetry and update checks off: the lint reads only the files and redocly.yaml.
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', FORCE_COLOR: '0' };
    let output: string;
    try {
      const result = await run(join(ROOT, 'node_modules/.bin/redocly'), ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'stylish', ...files], {
        cwd: dir,
        env,
        maxBuffer: 16 * 1024 * 1024,
      });
      output = result.stdout + result.stderr;
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      throw new Error(`redocly lint failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
    expect(output).toContain('Your API descriptions are valid');
    expect(output, output).not.toMatch(/You have \d+ warnings?|\[\d+\] /);
  }, 120_000);

  it('type integer parameters as integers with their bounds, name every record, and read well', async () => {
    const { v1, v2 } = await documentsOf(setup());
    const search = v1.paths['/api/v1/search']?.get;
    const param = (name: string) => search?.parameters.find((p) => p.name === name)?.schema;
    expect(param('limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(param('year_from')).toMatchObject({ type: 'integer', minimum: 1000, maximum: 2999 });
    expect(param('year_to')).toMatchObject({ type: 'integer', minimum: 1000, maximum: 2999 });
    expect(Object.keys(v1.components.schemas)).toEqual(
      expect.arrayContaining(['Master', 'ArtistDossier', 'SearchHit', 'Usage', 'Release', 'MasterDossier', 'Error']),
    );
    expect(Object.keys(v2.components.schemas)).toEqual(expect.arrayContaining(['V2ArtistDossier', 'Master', 'SearchHit', 'Cluster']));
    expect(v1.paths['/api/v1/masters/{id}']?.get?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Master' });
    expect(v1.paths['/api/v1/masters/{id}']?.get?.operationId).toBe('getMastersById');
    expect(v1.paths['/api/v1/openapi.json']?.get?.operationId).toBe('getOpenapi');
    expect(v2.paths['/api/v2']?.get?.operationId).toBe('getIndex');
    for (const doc of [v1, v2]) {
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(operations)) {
          expect(op.operationId, `${method} ${path}`).toMatch(/^(get|head|options|post|delete|put|patch)[A-Z][A-Za-z]*$/);
          for (const p of op.parameters) expect((p as { description?: string }).description, `${method} ${path} ${p.name}`).toBeTruthy();
          for (const [status, response] of Object.entries(op.responses)) {
            const media = response.content?.['application/json'] as { example?: unknown } | undefined;
            if (media) expect(media.example, `${method} ${path} ${status}`).toBeDefined();
          }
        }
      }
    }
  });
});
