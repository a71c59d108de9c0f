/**
 * The Deno Deploy entry: no file system to keep secrets in and no port to choose, so
 * ADMIN_TOKEN and SECRET_KEY come from the project's environment variables (without
 * ADMIN_TOKEN the admin routes answer 404), and the platform picks the port. Point
 * DATABASE_URL and UPSTASH_REDIS_REST_URL/TOKEN at shared stores: isolates come and go.
 */
import { createServiceFromEnv } from '@catalogue/host-kit';
import { cronJobs, serve } from './serve.ts';

const hosted = await createServiceFromEnv(Deno.env.toObject());
await serve(hosted.service, { trustProxy: hosted.env.trustProxy, publicOrigin: hosted.env.publicOrigin });
cronJobs(hosted.service);
