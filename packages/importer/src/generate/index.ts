export { generateCatalogue } from './generate.js';
export type { MasterWithReleases } from './masters.js';
export { generateSignalsFor, type SignalsOptions } from './signals-for.js';
export { DEFAULT_AS_OF, DEFAULT_SEED, DEMO_SIZES, SCALE_SIZES, type Sizes } from './sizes.js';
export { type CatalogueStream, type GenerateOptions, streamCatalogue } from './stream.js';
