/**
 * valibot → JSON Schema for the OpenAPI documents. Records registered with `named()`
 * (schemas/named.ts) become `#/components/schemas/<Name>` and are referred to wherever they
 * appear, so generated clients get one `Master` type instead of an inline copy per route.
 * Query parameters are converted from the output side of their pipe: `limit` arrives as text
 * but is documented as the bounded integer it denotes (issue 16 item 6).
 */
import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { namedSchemas } from './schemas/named.js';

export type Json = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';

function config(typeMode: 'input' | 'output', definitions: Record<string, v.GenericSchema>): ConversionConfig {
  return { target: 'draft-2020-12', typeMode, errorMode: 'ignore', definitions, overrideRef: ({ referenceId }) => `${COMPONENT}${referenceId}` };
}

function convert(schema: v.GenericSchema, typeMode: 'input' | 'output', definitions = namedSchemas()): Json {
  const out = toJsonSchema(schema, config(typeMode, definitions)) as Json;
  delete out.$schema;
  delete out.$defs;
  return out;
}

/**
 * Bodies are documented strict: every object that does not say otherwise gets
 * `additionalProperties: false`, so a field the code adds without documenting it fails the
 * contract test instead of slipping out unnoticed. Records (`v.record`) keep their value schema.
 */
export function strictSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, value] of Object.entries(node)) {
    if (k === 'properties' && value && typeof value === 'object') {
      out[k] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, strictSchema(sub)]));
    } else if (k === 'items' || k === 'additionalProperties' || k === 'anyOf' || k === 'oneOf' || k === 'allOf' || k === 'prefixItems' || k === 'not') {
      out[k] = strictSchema(value);
    } else {
      out[k] = value;
    }
  }
  if ((out.type === 'object' || out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** A request or response body: a `$ref` when the schema is named, else inline and strict. */
export function bodySchema(schema: v.GenericSchema): Json {
  return strictSchema(convert(schema, 'input')) as Json;
}

/** A query parameter's value as the route receives it after parsing (integers as integers). */
export function querySchema(schema: v.GenericSchema): Json {
  const out = convert(schema, 'output');
  // A default is written as the query text it stands for ('20'); document the value it becomes.
  if ((out.type === 'integer' || out.type === 'number') && typeof out.default === 'string') out.default = Number(out.default);
  return out;
}

/** Every named schema as a strict component (the document keeps the ones it refers to). */
export function componentSchemas(): Record<string, Json> {
  const definitions = namedSchemas();
  const out: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(definitions)) {
    // Converted against the others only, so the component is the schema itself, not a $ref to it.
    const { [name]: _self, ...others } = definitions;
    out[name] = strictSchema(convert(schema, 'input', others)) as Json;
  }
  return out;
}

/** The `#/components/<kind>/<name>` references anywhere under `node`. */
export function refsIn(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) refsIn(item, into);
  else if (node && typeof node === 'object') {
    for (const [k, value] of Object.entries(node)) {
      if (k === '$ref' && typeof value === 'string') into.add(value);
      else refsIn(value, into);
    }
  }
  return into;
}

/**
 * Keeps only the components the paths refer to, directly or through other components: each
 * version's document names its own records, and an unused component would be noise (Redocly's
 * `no-unused-components`).
 */
export function usedComponents(paths: unknown, components: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const seen = new Set<string>();
  const queue = [...refsIn(paths)];
  while (queue.length > 0) {
    const ref = queue.pop() as string;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [, , kind, name] = ref.split('/');
    const target = kind && name ? components[kind]?.[name] : undefined;
    if (target) queue.push(...refsIn(target));
  }
  const out: Record<string, Record<string, unknown>> = {};
  for (const [kind, entries] of Object.entries(components)) {
    // Security schemes are named by operations' `security`, not by `$ref`.
    const used = (name: string) => (kind === 'securitySchemes' ? securityNames(paths).has(name) : seen.has(`#/components/${kind}/${name}`));
    const kept = Object.fromEntries(Object.entries(entries).filter(([name]) => used(name)));
    if (Object.keys(kept).length > 0) out[kind] = kept;
  }
  return out;
}

function securityNames(paths: unknown): Set<string> {
  const names = new Set<string>();
  for (const operations of Object.values(paths as Record<string, Record<string, { security?: Array<Record<string, unknown>> }>>)) {
    for (const operation of Object.values(operations))
      for (const requirement of operation.security ?? []) for (const name of Object.keys(requirement)) names.add(name);
  }
  return names;
}
