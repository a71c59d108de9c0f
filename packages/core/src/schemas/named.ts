/**
 * Named schemas: a record the API serves is registered under the name its OpenAPI component
 * takes (`#/components/schemas/Master`), so generated clients get a `Master` type instead of an
 * anonymous inline object at every route (issue 16 item 6). Registration is by schema identity:
 * wherever the same valibot schema object appears (a route's answer, a field of another record)
 * the document refers to the component.
 */
import type * as v from 'valibot';

const NAMES = new Map<v.GenericSchema, string>();
const SCHEMAS = new Map<string, v.GenericSchema>();

/** Registers `schema` as the component `name` and returns it unchanged. */
export function named<S extends v.GenericSchema>(name: string, schema: S): S {
  const taken = SCHEMAS.get(name);
  if (taken && taken !== schema) throw new Error(`schema name ${name} is taken`);
  NAMES.set(schema, name);
  SCHEMAS.set(name, schema);
  return schema;
}

/** Every named schema, by name (what openapi.ts turns into components). */
export function namedSchemas(): Record<string, v.GenericSchema> {
  return Object.fromEntries(SCHEMAS);
}
