/**
 * IncomingHeaders answers as the undici Headers it replaces would for the same header lines,
 * and the Node host hands it to the core with what a client really sent.
 */
import { connect } from 'node:net';
import type { Service } from '@catalogue/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncomingHeaders } from './incoming-headers.js';
import { createNodeServer, listen, type RunningServer } from './serve.js';

/** rawHeaders as Node gives them: name and value alternating. */
const raw = (...lines: Array<[string, string]>) => lines.flat();
const reference = (lines: string[]) => {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < lines.length; i += 2) pairs.push([lines[i] as string, lines[i + 1] as string]);
  return new Headers(pairs);
};

describe('IncomingHeaders', () => {
  it('compares names without case', () => {
    const headers = new IncomingHeaders(raw(['X-API-Key', 'ck_live_abc'], ['Accept-Encoding', 'gzip, br'], ['if-none-match', '"e1"']));
    expect(headers.get('x-api-key')).toBe('ck_live_abc');
    expect(headers.get('X-Api-KEY')).toBe('ck_live_abc');
    expect(headers.get('accept-encoding')).toBe('gzip, br');
    expect(headers.get('If-None-Match')).toBe('"e1"');
    expect(headers.has('ACCEPT-ENCODING')).toBe(true);
    expect(headers.get('origin')).toBeNull();
    expect(headers.has('origin')).toBe(false);
  });

  it('joins a repeated header with ", " in the order received, as Headers does', () => {
    const lines = raw(
      ['Origin', 'https://a.example'],
      ['accept', 'text/html'],
      ['origin', 'https://b.example'],
      ['If-None-Match', '"a"'],
      ['if-none-match', '"b"'],
    );
    const headers = new IncomingHeaders(lines);
    expect(headers.get('origin')).toBe('https://a.example, https://b.example');
    expect(headers.get('if-none-match')).toBe('"a", "b"');
    expect(headers.get('origin')).toBe(reference(lines).get('origin'));
  });

  it('a repeated x-api-key is the joined text, which no key matches', () => {
    const headers = new IncomingHeaders(raw(['x-api-key', 'ck_live_one'], ['X-Api-Key', 'ck_live_two']));
    expect(headers.get('x-api-key')).toBe('ck_live_one, ck_live_two');
  });

  it('strips HTTP whitespace at the ends of a value, keeps it inside', () => {
    const lines = raw(['x-a', ' \t padded \t '], ['x-b', 'in  side'], ['x-c', ''], ['x-d', '  ']);
    const headers = new IncomingHeaders(lines);
    const expected = reference(lines);
    for (const name of ['x-a', 'x-b', 'x-c', 'x-d']) expect(headers.get(name)).toBe(expected.get(name));
    expect(headers.get('x-a')).toBe('padded');
  });

  it('names like Object.prototype members are ordinary names', () => {
    const headers = new IncomingHeaders(raw(['__proto__', 'p'], ['constructor', 'c'], ['toString', 't']));
    expect(headers.get('__proto__')).toBe('p');
    expect(headers.get('constructor')).toBe('c');
    expect(headers.get('tostring')).toBe('t');
    expect(headers.get('hasOwnProperty')).toBeNull();
    expect(headers.has('valueOf')).toBe(false);
  });

  it('iterates, counts set-cookie apart and accepts changes like Headers', () => {
    const lines = raw(['B', '2'], ['a', '1'], ['Set-Cookie', 's=1'], ['set-cookie', 't=2'], ['b', '3']);
    const headers = new IncomingHeaders(lines);
    const expected = reference(lines);
    expect([...headers]).toEqual([...expected]);
    expect([...headers.entries()]).toEqual([...expected.entries()]);
    expect([...headers.keys()]).toEqual([...expected.keys()]);
    expect([...headers.values()]).toEqual([...expected.values()]);
    expect(headers.getSetCookie()).toEqual(['s=1', 't=2']);
    const seen: string[] = [];
    headers.forEach((value, key, parent) => {
      expect(parent).toBe(headers);
      seen.push(`${key}=${value}`);
    });
    expect(seen).toEqual(['a=1', 'b=2, 3', 'set-cookie=s=1', 'set-cookie=t=2']);
    headers.set('A', 'x');
    headers.append('c', 'y');
    headers.delete('b');
    expect(headers.get('a')).toBe('x');
    expect(headers.get('c')).toBe('y');
    expect(headers.has('b')).toBe(false);
  });

  it('a Request built from it carries the same headers', () => {
    const headers = new IncomingHeaders(raw(['Content-Type', 'application/json'], ['X-Api-Key', 'k']));
    const request = new Request('http://localhost/', { method: 'POST', headers, body: '{}' });
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(request.headers.get('x-api-key')).toBe('k');
  });

  it('get and has agree with Headers on any valid header lines', () => {
    const tchar = fc.constantFrom(..."!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split(''));
    const name = fc.oneof(
      fc.string({ unit: tchar, minLength: 1, maxLength: 6 }),
      fc.constantFrom('X-Api-Key', 'origin', 'If-None-Match', 'Set-Cookie', '__proto__'),
    );
    // A field value: HTAB, SP, visible ASCII and obs-text (Node's parser refuses CR, LF and NUL).
    const valueChar = fc.oneof(
      fc.constantFrom('\t', ' '),
      fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
    );
    const value = fc.string({ unit: valueChar, maxLength: 8 });
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 8 }), name, (lines, probe) => {
        const flat = lines.flat();
        const ours = new IncomingHeaders(flat);
        const theirs = reference(flat);
        for (const asked of [probe, probe.toUpperCase(), ...lines.map(([n]) => n)]) {
          expect(ours.get(asked)).toBe(theirs.get(asked));
          expect(ours.has(asked)).toBe(theirs.has(asked));
        }
      }),
    );
  });
});

describe('the Node host hands the core IncomingHeaders over what the client sent', () => {
  let running: RunningServer;
  const asked = ['x-api-key', 'accept-encoding', 'if-none-match', 'origin', 'x-odd'];
  beforeAll(async () => {
    const service = {
      fetch: async (request: Request) => {
        const seen: Record<string, string | null> = {};
        for (const name of asked) seen[name] = request.headers.get(name);
        // A body read makes the bridge build a full Request from these headers.
        const body = request.method === 'POST' ? await request.text() : null;
        return new Response(JSON.stringify({ seen, body, hasOrigin: request.headers.has('Origin') }), { headers: { 'content-type': 'application/json' } });
      },
    } as unknown as Service;
    running = await listen(createNodeServer(service, { trustProxy: false }), 0, '127.0.0.1', 1_000);
  });
  afterAll(() => running.close());

  function send(lines: string[], body = ''): Promise<{ status: number; json: Record<string, unknown> }> {
    const { port } = new URL(running.url);
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\nConnection: close\r\n\r\n${body}`, 'latin1'));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const bytes = Buffer.concat(chunks);
        const split = bytes.indexOf('\r\n\r\n');
        resolve({ status: Number(bytes.toString('latin1').split(' ')[1]), json: JSON.parse(bytes.subarray(split + 4).toString('utf8')) });
      });
    });
  }

  it('case-insensitive names, repeated headers joined, whitespace trimmed', async () => {
    const answer = await send([
      'GET /api/v1/masters/1 HTTP/1.1',
      'Host: localhost',
      'X-API-KEY: ck_live_key',
      'Accept-Encoding: gzip',
      'accept-encoding: br',
      'If-None-Match:   "e1"  ',
      'X-Odd: caf\u00e9 \u00ff',
    ]);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      seen: { 'x-api-key': 'ck_live_key', 'accept-encoding': 'gzip, br', 'if-none-match': '"e1"', origin: null, 'x-odd': 'caf\u00e9 \u00ff' },
      body: null,
      hasOrigin: false,
    });
  });

  it('a body read builds the full Request from the same lines', async () => {
    const answer = await send(
      ['POST /echo HTTP/1.1', 'Host: localhost', 'Origin: https://app.example', 'Content-Type: text/plain', 'Content-Length: 5'],
      'hello',
    );
    expect(answer.json).toMatchObject({ seen: { origin: 'https://app.example' }, body: 'hello', hasOrigin: true });
  });
});
