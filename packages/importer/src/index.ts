// Deterministic demo and scale catalogue generator (see ../GENERATOR.md).

// Streaming Discogs XML dumps and the JSONL feeds → catalogue rows (see ../README.md).
export * from './discogs/index.js';
export * from './feeds/index.js';
export {
  type CatalogueStream,
  DEFAULT_AS_OF,
  DEFAULT_SEED,
  DEMO_SIZES,
  type GenerateOptions,
  generateCatalogue,
  generateSignalsFor,
  type MasterWithReleases,
  SCALE_SIZES,
  type SignalsOptions,
  type Sizes,
  streamCatalogue,
} from './generate/index.js';
