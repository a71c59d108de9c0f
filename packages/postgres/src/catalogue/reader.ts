/**
 * How catalogue queries reach the database: through the backstops, with what says whether the
 * request ended (its lifetime or a caller's AbortSignal: core's `abortProbeOf`).
 */
import type { AbortProbe } from '@catalogue/core';
import type { PendingQuery, Row } from 'postgres';

export type Reader = <T extends readonly (object | undefined)[] = Row[]>(abort: AbortProbe | undefined, build: () => PendingQuery<T>) => Promise<T>;
