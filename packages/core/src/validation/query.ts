/**
 * Strict query parsing. Names and values are NFKC-normalized first; a name still unknown
 * after that is refused with `invalid_query`, and when its UTS #39 skeleton equals an allowed
 * name the detail says which one it imitates. A value no store can hold (U+0000, storable.ts)
 * is refused for every parameter alike; each other value then goes through its valibot schema.
 */
import * as v from 'valibot';
import { type IssueDetail, invalidQuery } from '../errors/api-error.js';
import { detailsOf } from './issues.js';
import { imitatedName } from './skeleton.js';
import { unstorableTextProblem } from './storable.js';

export interface ParamSpec {
  schema: v.GenericSchema<string | undefined, unknown>;
  /** Repeated occurrences are allowed and collected into an array. */
  multi?: boolean;
}

export type QuerySpec = Record<string, ParamSpec>;

type ParamOutput<P extends ParamSpec> = P['multi'] extends true
  ? Array<Exclude<v.InferOutput<P['schema']>, undefined>> | undefined
  : v.InferOutput<P['schema']>;

export type QueryOutput<S extends QuerySpec> = { [K in keyof S]: ParamOutput<S[K]> };

export type RawQuery = Record<string, string | string[]>;

/** Reads URLSearchParams into name → value(s) without normalizing. */
export function rawQueryOf(params: URLSearchParams): RawQuery {
  const out: RawQuery = Object.create(null);
  for (const [name, value] of params) {
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

export function parseQuery<S extends QuerySpec>(raw: RawQuery, spec: S): QueryOutput<S> {
  const allowed = Object.keys(spec);
  const issues: IssueDetail[] = [];
  const values: Record<string, string[]> = Object.create(null);
  /** Parameters already refused for unstorable text: their schema adds nothing to say. */
  const unstorable = new Set<string>();

  for (const rawName of Object.keys(raw)) {
    const name = rawName.normalize('NFKC');
    const param = spec[name];
    if (!param) {
      const imitates = imitatedName(name, allowed);
      issues.push(
        imitates
          ? { path: rawName, message: `unknown parameter; it imitates "${imitates}" with look-alike characters`, imitates }
          : { path: rawName, message: `unknown parameter; allowed: ${allowed.join(', ') || 'none'}` },
      );
      continue;
    }
    const rawValue = raw[rawName] as string | string[];
    const list = (Array.isArray(rawValue) ? rawValue : [rawValue]).map((s) => s.normalize('NFKC'));
    for (const value of list) {
      const problem = unstorableTextProblem(value);
      if (problem) {
        issues.push({ path: name, message: problem });
        unstorable.add(name);
      }
    }
    const collected = values[name];
    if (collected) collected.push(...list);
    else values[name] = list;
  }

  const out: Record<string, unknown> = {};
  for (const name of allowed) {
    if (unstorable.has(name)) continue;
    const param = spec[name] as ParamSpec;
    const list = values[name];
    if (list && list.length > 1 && !param.multi) {
      issues.push({ path: name, message: 'must appear at most once' });
      continue;
    }
    if (param.multi && list) {
      const parsed: unknown[] = [];
      for (const item of list) {
        const result = v.safeParse(param.schema, item);
        if (result.success) parsed.push(result.output);
        else issues.push(...detailsOf(result.issues, name));
      }
      out[name] = parsed;
    } else {
      const result = v.safeParse(param.schema, list?.[0]);
      if (result.success) out[name] = result.output;
      else issues.push(...detailsOf(result.issues, name));
    }
  }

  if (issues.length > 0) throw invalidQuery(issues);
  return out as QueryOutput<S>;
}
