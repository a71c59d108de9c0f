/**
 * How long a client may keep a catalogue answer (RouteDef.cache; docs/decisions.md §6,
 * "Caching"). The catalogue changes only when an import finishes (a new catalogue generation,
 * docs/decisions.md §5), so a kept answer is at most this old after an import; with the ETag a
 * client revalidates for a bodiless 304 instead of fetching again.
 */
import type { CachePolicy } from '../../http/representation.js';

/** Records and dossiers of one entity: they change with an import only. */
export const RECORD_CACHE: CachePolicy = { maxAgeSeconds: 3600 };

/** Lists, counts, resolutions and the documents: shorter, as they gather many entities. */
export const LIST_CACHE: CachePolicy = { maxAgeSeconds: 300 };
