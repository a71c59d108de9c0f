/** A redis-server of a test's own on a spare port, without persistence, that a test can kill and restart. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis as IORedis } from 'ioredis';

export interface RedisProcess {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGKILL: the data is gone (no save, no AOF). */
  kill(): Promise<void>;
  /** SIGSTOP: the server holds its data but answers nothing (a stalled or partitioned Redis) until `resume`. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
}

/** redis-server's arguments for a test's own server: loopback only, no persistence (files, if any, in `dir`). */
export function ephemeralServerArgs(port: number, dir?: string): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...(dir ? ['--dir', dir] : [])];
}

/** SIGKILL of a process this test started, by its PID; resolves once it has exited. */
export function killProcess(child: ChildProcess | null | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

export async function sparePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function waitForPing(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const probe = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      probe.disconnect();
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server at ${url} did not start`);
}

export async function createRedisProcess(extraArgs: string[] = []): Promise<RedisProcess> {
  const port = await sparePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  return {
    port,
    url,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs], { stdio: 'ignore' });
      await waitForPing(url);
    },
    async kill() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGKILL');
      });
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
}
