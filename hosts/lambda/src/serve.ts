/**
 * The Lambda host's serve(service, options) → {handler, close}: Lambda has no server and no
 * URL of its own (API Gateway, a Function URL or an ALB gives it one), so serve gives the one
 * handler for every event kind — API Gateway REST (v1), HTTP API (v2), Function URLs, ALB,
 * and the EventBridge schedule that runs runJobs — and the same close as every host.
 */
import { ApiError, type Service } from '@catalogue/core';
import {
  backgroundWork,
  capRequestBody,
  HOST_GRACE_MS,
  HOST_MAX_BODY_BYTES,
  hostRefusal,
  payloadTooLargeResponse,
  type ServedHost,
  type ServeOptions,
  type TrustProxy,
} from '@catalogue/host-kit';
import { type AlbEvent, type ApiGatewayV1Event, type ApiGatewayV2Event, type HttpResult, kindOf, type LambdaEvent, type ScheduledEvent } from './events.js';
import { toAlb, toApiGatewayV1, toApiGatewayV2 } from './from-response.js';
import { type EventOptions, fromAlb, fromApiGatewayV1, fromApiGatewayV2, type IncomingRequest } from './to-request.js';

export interface LambdaHandlerOptions {
  /** TRUST_PROXY (host-kit client-ip.ts): `true` is one proxy in front of the platform's own. */
  trustProxy?: TrustProxy;
  /** BASE_URL's origin when it is set (HostEnv.publicOrigin): the origin of every request URL. */
  publicOrigin?: string | null;
  maxBodyBytes?: number;
  /** How long a response waits for background work (lease release, usage) before returning. */
  backgroundGraceMs?: number;
}

export type LambdaHandler = (event: LambdaEvent, context?: unknown) => Promise<HttpResult | { ok: true; ran: 'runJobs' }>;

export interface ServedLambda extends Pick<ServedHost, 'close'> {
  handler: LambdaHandler;
}

/** serve(): the handler, and a close that lets every invocation's background work finish (up to options.graceMs). */
export function serve(
  service: Service | Promise<Service>,
  options: Omit<ServeOptions, 'port' | 'hostname'> & Pick<LambdaHandlerOptions, 'backgroundGraceMs'>,
): ServedLambda {
  const all = backgroundWork();
  return { handler: createLambdaHandler(service, options, all.waitUntil), close: () => all.settle(options.graceMs ?? HOST_GRACE_MS) };
}

export function createLambdaHandler(
  service: Service | Promise<Service>,
  options: LambdaHandlerOptions = {},
  track: (promise: Promise<unknown>) => void = () => {},
): LambdaHandler {
  const eventOptions: EventOptions = { trustProxy: options.trustProxy ?? false, publicOrigin: options.publicOrigin ?? null };
  const maxBody = options.maxBodyBytes ?? HOST_MAX_BODY_BYTES;
  const graceMs = options.backgroundGraceMs ?? 2_000;

  async function answer(incoming: IncomingRequest | ApiError): Promise<Response> {
    if (incoming instanceof ApiError) return hostRefusal(incoming);
    if (incoming.bodyBytes > maxBody) return payloadTooLargeResponse(maxBody);
    const capped = capRequestBody(incoming.request, maxBody);
    if (capped instanceof Response) return capped;
    const work = backgroundWork();
    const waitUntil = (promise: Promise<unknown>) => {
      work.waitUntil(promise);
      track(promise);
    };
    const response = await (await service).fetch(capped, { clientIp: incoming.clientIp, waitUntil });
    // Lambda freezes the sandbox once the handler returns: finish this invocation's background work first.
    await work.settle(graceMs);
    return response;
  }

  return async (event) => {
    switch (kindOf(event)) {
      case 'scheduled': {
        const time = new Date((event as ScheduledEvent).time);
        await (await service).runJobs(Number.isNaN(time.getTime()) ? new Date() : time);
        return { ok: true, ran: 'runJobs' };
      }
      case 'apigateway-v2':
        return toApiGatewayV2(await answer(fromApiGatewayV2(event as ApiGatewayV2Event, eventOptions)));
      case 'alb': {
        const alb = event as AlbEvent;
        return toAlb(await answer(fromAlb(alb, eventOptions)), alb.multiValueHeaders !== undefined);
      }
      case 'apigateway-v1':
        return toApiGatewayV1(await answer(fromApiGatewayV1(event as ApiGatewayV1Event, eventOptions)));
    }
  };
}
