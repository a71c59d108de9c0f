/**
 * Text a store can hold. PostgreSQL `text` refuses U+0000 ("invalid byte sequence for encoding
 * UTF8: 0x00") and holds only valid UTF-8, which a lone UTF-16 surrogate has no encoding in
 * (postgres.js would silently store U+FFFD instead, jsonb refuses it). Core refuses such text
 * before any store sees it, so every store answers alike (docs/decisions.md §6): a query value or path
 * parameter with U+0000 is `400 invalid_query` naming the parameter, a body field
 * `400 invalid_body` naming the field.
 */
import * as v from 'valibot';

/** In `u` mode a surrogate pair is one code point, so only an unpaired surrogate matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `text` cannot be stored, or null when it can. */
export function unstorableTextProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain U+0000 (NUL)';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone UTF-16 surrogate (it has no UTF-8 encoding)';
  return null;
}

/** The same rule as a valibot action, for the body fields that reach a store. */
export const storableText = v.rawCheck<string>(({ dataset, addIssue }) => {
  const problem = dataset.typed ? unstorableTextProblem(dataset.value) : null;
  if (problem) addIssue({ message: problem });
});
