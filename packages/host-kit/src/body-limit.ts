/**
 * The host-level body cap: no request body over HOST_MAX_BODY_BYTES reaches the service,
 * whatever the route. The core caps the bodies it reads (32 KB, 64 KB); this cap guards the
 * host itself. A declared Content-Length over the cap is refused before a byte is read; a body
 * without one (chunked) is counted while it streams and fails with the same 413 once over.
 */
import { ApiError } from '@catalogue/core';
import { hostRefusal } from './refusal.js';

export const HOST_MAX_BODY_BYTES = 1_048_576;

export function payloadTooLarge(maxBytes: number): ApiError {
  return new ApiError('payload_too_large', { max_bytes: maxBytes });
}

/** The spec's 413 answer, for hosts that refuse before the service sees the request. */
export function payloadTooLargeResponse(maxBytes: number = HOST_MAX_BODY_BYTES): Response {
  return hostRefusal(payloadTooLarge(maxBytes));
}

/** True when a declared Content-Length is over the cap. */
export function declaredTooLarge(contentLength: string | null | undefined, maxBytes: number = HOST_MAX_BODY_BYTES): boolean {
  return contentLength !== null && contentLength !== undefined && contentLength !== '' && Number(contentLength) > maxBytes;
}

/**
 * The request as the service should see it: a 413 Response when the declared length is over
 * the cap, the request unchanged when its length is declared (the runtime's HTTP framing then
 * bounds the body), or a copy whose body stream fails with payload_too_large past the cap.
 */
export function capRequestBody(request: Request, maxBytes: number = HOST_MAX_BODY_BYTES): Request | Response {
  const declared = request.headers.get('content-length');
  if (declaredTooLarge(declared, maxBytes)) return payloadTooLargeResponse(maxBytes);
  if (declared !== null || request.body === null) return request;
  return new Request(request, { body: request.body.pipeThrough(countingStream(maxBytes)), duplex: 'half' } as RequestInit);
}

export function countingStream(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.byteLength;
      // An ApiError: whichever route reads the body answers 413 in the spec's shape.
      if (total > maxBytes) controller.error(payloadTooLarge(maxBytes));
      else controller.enqueue(chunk);
    },
  });
}
