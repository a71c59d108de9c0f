export { DISCOGS_KINDS, type DiscogsBatch, type DiscogsKind, type DiscogsRowOf, isDiscogsKind } from './kinds.js';
export { DEFAULT_BATCH_SIZE, type DiscogsInput, type ParseDiscogsOptions, parseDiscogs } from './parse-discogs.js';
export { ImportError, type ImportErrorContext } from './record-error.js';
