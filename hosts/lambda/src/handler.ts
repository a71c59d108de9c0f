/**
 * The Lambda entry (`hosts/lambda/dist/handler.mjs`, export `handler`). The service is built
 * once per sandbox from the environment of docs/decisions.md §1: ADMIN_TOKEN and SECRET_KEY
 * come from the function's configuration; DATABASE_URL and UPSTASH_REDIS_REST_URL/TOKEN (or
 * REDIS_URL) should point at shared stores, since sandboxes come and go. Without DATABASE_URL
 * it serves the in-memory demo catalogue.
 */
import { createServiceFromEnv, readEnv } from '@catalogue/host-kit';
import { serve } from './serve.js';

const env = readEnv(process.env);

export const { handler } = serve(
  createServiceFromEnv(process.env).then((hosted) => hosted.service),
  { trustProxy: env.trustProxy, publicOrigin: env.publicOrigin },
);

export type * from './events.js';
export { createLambdaHandler, type LambdaHandler, type LambdaHandlerOptions, serve } from './serve.js';
