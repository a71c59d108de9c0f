import type { Logger } from '@catalogue/core';

/**
 * A logger that adds the same fields to every line: each process of the Node host's cluster
 * logs its `pid` (and the primary its role), so the access log says which worker answered.
 */
export function taggedLogger(logger: Logger, fields: Record<string, string | number>): Logger {
  return { log: (record) => logger.log({ ...fields, ...record }) };
}
