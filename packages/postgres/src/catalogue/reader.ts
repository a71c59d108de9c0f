/** How catalogue queries reach the database: through the backstops, with the request's signal. */
import type { PendingQuery, Row } from 'postgres';

export type Reader = <T extends readonly (object | undefined)[] = Row[]>(signal: AbortSignal | undefined, build: () => PendingQuery<T>) => Promise<T>;
