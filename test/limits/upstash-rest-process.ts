/**
 * The Upstash REST stand-in in a process of its own. In the test's own process it shares the
 * event loop with the limiter, so a test that keeps that loop busy would stall the "remote"
 * store too; a real Upstash endpoint is elsewhere.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Redis } from '@upstash/redis';
import type { Transport } from './transports.js';

export async function openRestTransportInOwnProcess(redisUrl: string): Promise<Transport> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'upstash-rest-main.ts'), redisUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const endpoint = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(JSON.parse(line));
    });
    child.once('exit', (code) => reject(new Error(`the REST stand-in exited (${code}) before listening`)));
  });
  const redis = new Redis({ url: endpoint.url, token: endpoint.token, retry: false, enableTelemetry: false });
  return {
    redis,
    commands: redis,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
