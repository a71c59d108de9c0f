/**
 * One Lambda handler for every event kind: API Gateway REST (v1), HTTP API (v2), Function
 * URLs, ALB, and the EventBridge schedule that runs runJobs.
 */
import { ApiError, type Service } from '@catalogue/core';
import { capRequestBody, HOST_MAX_BODY_BYTES, hostRefusal, payloadTooLargeResponse } from '@catalogue/host-kit';
import { type AlbEvent, type ApiGatewayV1Event, type ApiGatewayV2Event, type HttpResult, kindOf, type LambdaEvent, type ScheduledEvent } from './events.js';
import { toAlb, toApiGatewayV1, toApiGatewayV2 } from './from-response.js';
import { type EventOptions, fromAlb, fromApiGatewayV1, fromApiGatewayV2, type IncomingRequest } from './to-request.js';

export interface LambdaHandlerOptions {
  trustProxy?: boolean;
  /** BASE_URL's origin when it is set (HostEnv.publicOrigin): the origin of every request URL. */
  publicOrigin?: string | null;
  maxBodyBytes?: number;
  /** How long a response waits for background work (lease release, usage) before returning. */
  backgroundGraceMs?: number;
}

export type LambdaHandler = (event: LambdaEvent, context?: unknown) => Promise<HttpResult | { ok: true; ran: 'runJobs' }>;

export function createLambdaHandler(service: Service | Promise<Service>, options: LambdaHandlerOptions = {}): LambdaHandler {
  const eventOptions: EventOptions = { trustProxy: options.trustProxy ?? false, publicOrigin: options.publicOrigin ?? null };
  const maxBody = options.maxBodyBytes ?? HOST_MAX_BODY_BYTES;
  const graceMs = options.backgroundGraceMs ?? 2_000;

  async function answer(incoming: IncomingRequest | ApiError): Promise<Response> {
    if (incoming instanceof ApiError) return hostRefusal(incoming);
    if (incoming.bodyBytes > maxBody) return payloadTooLargeResponse(maxBody);
    const capped = capRequestBody(incoming.request, maxBody);
    if (capped instanceof Response) return capped;
    const pending: Array<Promise<unknown>> = [];
    const response = await (await service).fetch(capped, { clientIp: incoming.clientIp, waitUntil: (p) => void pending.push(p) });
    // Lambda freezes the sandbox once the handler returns: finish background work first.
    if (pending.length) await Promise.race([Promise.allSettled(pending), new Promise((r) => setTimeout(r, graceMs))]);
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
