/**
 * The pure catalogue building blocks, as one entry point (`@catalogue/core/catalogue`) for
 * adapters that store the rows elsewhere (PostgreSQL) and must assemble the same records.
 */

export { agentStubsOf, artistStub, labelStub, preferredName, withAgentStubs } from './agent-stubs.js';
export { addDays, dateOfReleased, daysBetween, pickDate } from './dates.js';
export { type ArtistDossierInput, artistDossierOf } from './dossiers/artist-dossier.js';
export { compareText } from './dossiers/counting.js';
export { festivalDossierOf } from './dossiers/festival-dossier.js';
export { type LabelDossierInput, labelDossierOf } from './dossiers/label-dossier.js';
export { MAX_RELEASES, type MasterDossierInput, masterDossierOf, releasesOf } from './dossiers/master-dossier.js';
export { CLUSTER_ID_RANGE, MASTER_ID_RANGE, SOURCE_ID_RANGE } from './id-ranges.js';
export { bandcampHostOf, type LocatorSource, locatorsOf, releaseUrlKey } from './locators.js';
export { type AgentLookup, mapLookup, refOf } from './lookup.js';
export { formatNamesOf, labelRefsOf, masterRecordOf, releaseRecordOf } from './master-record.js';
export {
  MAX_QUERY_TOKENS,
  type MasterFacetValues,
  type MatchMode,
  masterSearchEntry,
  pointsOf,
  round6,
  type SearchEntry,
  type SearchText,
  scoreOf,
  searchEntry,
  searchTextOf,
  TYPE_ORDER,
  withCorrections,
} from './search.js';
export { bandcampSignalsOf, tagCountsOf } from './signals/bandcamp-signals.js';
export { breakoutsQuery, computeSignals, onesToWatchQuery, type SignalInputs, type Signals, tastemakersQuery, WINDOW_DAYS } from './signals/engine.js';
export { mainGenreOf } from './signals/main-genre.js';
export { sortedObservations } from './signals/metric.js';
export { festivalPicksOf, labelPicksOf, type Pick } from './signals/picks.js';
export { matchesGenre, type SignalArtist } from './signals/signal-artist.js';
export { type TastemakerInfo, type TastemakerStanding, tastemakerList } from './signals/tastemakers.js';
export { assignSlugs, slugBase, slugify } from './slugs.js';
export { foldText, nameKey, tokensOf } from './text.js';
export { transliterate } from './transliterate.js';
export {
  allowedTypos,
  type Corrections,
  correctablePositions,
  correctedOf,
  correctionsAffordable,
  correctionsAmong,
  deletionsOf,
  editDistance,
  MAX_CORRECTED_DOCUMENTS,
  MAX_CORRECTIONS,
  MAX_TRIGRAM_CANDIDATES,
  MIN_TYPO_LENGTH,
  MIN_VOCABULARY_LENGTH,
  nearVariantsOf,
  TRIGRAM_THRESHOLD,
  TWO_TYPOS_LENGTH,
  type VocabularyWord,
} from './typos.js';
