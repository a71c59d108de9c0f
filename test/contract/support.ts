/** Contract helpers: documents from a live service, and an ajv (draft 2020-12) check of real answers. */

import type { TestService } from '@catalogue/core/memory';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export type OpenApiDoc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; headers: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};
export type Operation = {
  operationId: string;
  security: Array<Record<string, unknown>>;
  parameters: Array<{ name: string; in: 'path' | 'query'; required: boolean; schema: unknown }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
};

export async function documentsOf(t: TestService): Promise<{ v1: OpenApiDoc; v2: OpenApiDoc }> {
  const v1 = (await (await t.fetch('/api/v1/openapi.json')).json()) as OpenApiDoc;
  const v2 = (await (await t.fetch('/api/v2/openapi.json')).json()) as OpenApiDoc;
  return { v1, v2 };
}

/** Inlines `#/components/...` references so each response schema compiles on its own. */
function inline(node: unknown, doc: OpenApiDoc): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, doc));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, part) => (at as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return inline(target, doc);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, doc)]));
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = null;
  if (text !== '' && (res.headers.get('content-type') ?? '').includes('application/json')) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

/** Checks one real answer against the documented operation; returns the problems found. */
export function createContractChecker(doc: OpenApiDoc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new Map<unknown, ReturnType<typeof ajv.compile>>();
  const validatorOf = (schema: unknown) => {
    let fn = compiled.get(schema);
    if (!fn) {
      fn = ajv.compile(inline(schema, doc) as object);
      compiled.set(schema, fn);
    }
    return fn;
  };
  return {
    check(templatePath: string, method: string, answer: Answer): string[] {
      const op = doc.paths[templatePath]?.[method.toLowerCase()];
      if (!op) return [`${method} ${templatePath} is not documented`];
      const response = op.responses[String(answer.status)];
      if (!response)
        return [`${method} ${templatePath} answered ${answer.status}, which is not documented (documented: ${Object.keys(op.responses).join(', ')})`];
      const problems: string[] = [];
      for (const name of Object.keys(response.headers ?? {})) {
        const always =
          name === 'X-Request-Id' ||
          name === 'Location' ||
          (answer.status < 300 && name.startsWith('X-RateLimit-')) ||
          name === 'X-Search-Latency-Ms' ||
          (answer.status === 429 && name === 'Retry-After');
        if (always && !answer.headers.has(name)) problems.push(`${answer.status} lacks documented header ${name}`);
      }
      const media = response.content?.['application/json'];
      if (!media) {
        if (answer.text !== '' && answer.body !== null) problems.push(`${answer.status} has a JSON body but documents none`);
        return problems;
      }
      if (answer.body === null) return [...problems, `${answer.status} documents a JSON body but answered ${answer.headers.get('content-type')}`];
      const validate = validatorOf(media.schema);
      if (!validate(answer.body)) problems.push(`${answer.status} body: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
      return problems;
    },
  };
}
