/**
 * Run by busy-poll-runtimes.test.ts in Node, Bun and Deno: the store's reply reaches the socket
 * in time while the poll phase is busy with another socket's handler (a request being served),
 * and the limit's timer falls due during that handler, firing only a little late. Prints one JSON
 * line: each round's outcome for that call, and for a call the store never answers.
 *
 * Reads REDIS_PORT and TIME_LIMIT_MODULE (the absolute path of with-timeout.ts, imported by path
 * so each runtime loads the TypeScript source itself).
 */
import { connect, type Socket } from 'node:net';

type TimeLimitModule = typeof import('../../packages/upstash/src/with-timeout.js');
const { timeLimit } = (await import(process.env.TIME_LIMIT_MODULE as string)) as TimeLimitModule;
const port = Number(process.env.REDIS_PORT);
const LIMIT_MS = 50;

const open = () =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
const store = await open();
const request = await open();

const outcomes: Array<{ answered: string; unanswered: string }> = [];
for (let round = 0; round < 20; round++) {
  const limit = timeLimit(LIMIT_MS);
  const start = performance.now();
  const reply = new Promise<string>((resolve) => store.once('data', () => resolve('ok')));
  const answered = limit.wrap(reply).then(
    (value) => value,
    (error: Error) => error.name,
  );
  const unanswered = limit.wrap(new Promise<never>(() => {})).then(
    () => 'ok',
    (error: Error) => error.name,
  );
  // 40 ms in, a request's handler runs in the poll phase until 52 ms: the store call it sends at
  // its start is answered within a millisecond, but read only by the next poll.
  request.once('data', () => {
    store.write('PING\r\n');
    while (performance.now() < start + LIMIT_MS + 2) {}
  });
  setTimeout(() => request.write('PING\r\n'), 40);
  outcomes.push({ answered: await answered, unanswered: await unanswered });
}
store.destroy();
request.destroy();
console.log(JSON.stringify(outcomes));
