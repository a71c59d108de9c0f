/**
 * The limiter's commands onto ioredis's socket with the least JavaScript per command (issue 14):
 * one ioredis `Command` made directly and handed to `sendCommand`, which writes it and queues it
 * for its reply. ioredis's auto-pipelining did the batching before, at a cost: per command an
 * argument flattening and a key lookup, per turn a Pipeline with its own promises, and the
 * reply passed through a second promise and a nextTick. An admit and its release cost 39–43 µs
 * of the process's CPU with two admits per turn, 25 this way (with the deadline list of
 * with-timeout.ts); with eight per turn 22 against 12.5.
 *
 * The batching stays: the first command of an event-loop turn corks the socket and the turn's
 * end (setImmediate, as auto-pipelining scheduled its write) uncorks it, so the commands of one
 * turn still leave in one write.
 *
 * On a Redis Cluster (issue 27) the same Command goes to `Cluster.sendCommand`, which picks the
 * master of the command's slot (ioredis reads the keys out of it, EVALSHA's too) and follows
 * MOVED and ASK. There is no one socket to cork there, so a cluster's commands are not corked:
 * each node connection writes as ioredis writes it.
 */
import type { Socket } from 'node:net';
import { type Cluster, Command, type Redis as IORedis } from 'ioredis';

/** Replies as strings, as ioredis's own command methods give them (not Buffers). */
const AS_TEXT = { replyEncoding: 'utf8' } as const;

/** Sends `name` with `args` (already flat strings: ioredis copies them, nothing else) and resolves with the reply. */
export type SendCommand = <T>(name: string, args: string[]) => Promise<T>;

export function commandSender(connection: IORedis | Cluster): SendCommand {
  if (connection.isCluster) {
    const cluster = connection as Cluster;
    return <T>(name: string, args: string[]) => cluster.sendCommand(new Command(name, args, AS_TEXT)) as Promise<T>;
  }
  const single = connection as IORedis;
  let corked: Socket | null = null;
  const uncork = () => {
    const stream = corked;
    corked = null;
    stream?.uncork();
  };
  return <T>(name: string, args: string[]) => {
    // Only a ready connection writes at once; otherwise sendCommand refuses the command
    // (no offline queue) and there is nothing to batch.
    if (corked === null && single.status === 'ready') {
      const stream = single.stream as Socket | undefined;
      if (stream?.writable) {
        stream.cork();
        corked = stream;
        setImmediate(uncork);
      }
    }
    return single.sendCommand(new Command(name, args, AS_TEXT)) as Promise<T>;
  };
}
