/** The Upstash REST stand-in as a process of its own: prints `{url, token}` once listening. Argument: the Redis URL. */
import { startUpstashRestServer } from './upstash-rest-server.js';

const server = await startUpstashRestServer(process.argv[2] ?? 'redis://127.0.0.1:6379');
process.stdout.write(`${JSON.stringify({ url: server.url, token: server.token })}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
