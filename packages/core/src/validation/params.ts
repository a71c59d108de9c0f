/**
 * Reusable query parameter schemas. Query values arrive as strings (NFKC-normalized); a number
 * parameter's pipe names the number it becomes (`v.number()`, `v.integer()`), so the OpenAPI
 * documents, converted from the output side, type it `integer` with its bounds.
 */
import * as v from 'valibot';

export function integerParam(min: number, max: number, description: string) {
  return v.pipe(
    v.string(),
    v.regex(/^[0-9]{1,10}$/, 'must be a whole number written in digits'),
    v.transform(Number),
    v.number(),
    v.integer(),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
    v.description(description),
  );
}

export function textParam(maxLength: number, description: string) {
  return v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(maxLength, `must be at most ${maxLength} characters`), v.description(description));
}

export const limitParam = (defaultValue: number, description = 'Items per page, 1 to 100.') =>
  v.optional(integerParam(1, 100, `${description} Default ${defaultValue}.`), String(defaultValue));

export const yearParam = (description: string) => integerParam(1000, 2999, description);

export const cursorParam = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_-]{1,200}$/, 'must be a next_cursor value from a previous page'),
  v.description('Opaque keyset cursor: the next_cursor of the previous page.'),
);
