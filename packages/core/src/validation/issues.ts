import type * as v from 'valibot';
import type { IssueDetail } from '../errors/api-error.js';

/** valibot issues → the spec's `details[{path, message}]`, one entry per issue. */
export function detailsOf(issues: readonly v.BaseIssue<unknown>[], prefix?: string): IssueDetail[] {
  return issues.map((issue) => {
    const keys = (issue.path ?? []).map((item) => String(item.key));
    const path = [prefix, ...keys].filter((p) => p !== undefined && p !== '').join('.');
    return { path: path || (prefix ?? ''), message: issue.message };
  });
}
