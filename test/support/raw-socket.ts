/** A raw TCP connection to a served host, for tests that write HTTP by hand (half a body, a client leaving). */
import { connect, type Socket } from 'node:net';

export function openSocket(serverUrl: string): Promise<Socket> {
  const { port } = new URL(serverUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}
