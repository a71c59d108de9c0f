/**
 * Handlers answer with a Reply (status, body text, plain headers) rather than a Response: the
 * pipeline adds the request id, rate-limit and deprecation headers and builds the Response
 * once (RequestEvent.respond, http/request-event.ts). Setting headers on a built Response costs a validation per header and, on Node's
 * @hono/node-server bridge, forces the slow path that materialises a full undici Response.
 */
export class Reply {
  constructor(
    readonly status: number,
    /**
     * JSON or HTML text; UTF-8 bytes when the handler assembled them (the batch route, from
     * bodies encoded once per record); a stream only once compressed (representation.ts).
     */
    readonly body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null,
    readonly headers: Record<string, string>,
    /**
     * The strong ETag of `body` when the handler already knows it (a stored record's,
     * routes/shared/record-etags.ts); otherwise representation.ts digests the body.
     */
    readonly etag: string | null = null,
  ) {}
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export function json(body: unknown, status = 200, headers?: Record<string, string>): Reply {
  return new Reply(status, JSON.stringify(body), headers ? { 'content-type': JSON_TYPE, ...headers } : { 'content-type': JSON_TYPE });
}

/** A JSON body that is already serialized (the caller vouches that it is valid JSON). */
export function jsonText(text: string, status = 200): Reply {
  return new Reply(status, text, { 'content-type': JSON_TYPE });
}
