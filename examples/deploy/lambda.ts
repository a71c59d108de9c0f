/**
 * Minimal AWS Lambda entry. Deploy hosts/lambda/dist/handler.mjs (from `npm run build`) with
 * handler `handler.handler`, or bundle this file the same way. Route API Gateway (REST or
 * HTTP API), a Function URL or an ALB to it, plus an EventBridge rule `rate(1 minute)` for jobs.
 */
export { handler } from '@catalogue/host-lambda';
