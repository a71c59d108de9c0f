/**
 * The pure catalogue building blocks, as one entry point (`@catalogue/core/catalogue`) for
 * adapters that store the rows elsewhere (PostgreSQL) and must assemble the same records.
 */
export { addDays, dateOfReleased, daysBetween, pickDate } from './dates.js';
export { artistDossierOf, type ArtistDossierInput } from './dossiers/artist-dossier.js';
export { compareText } from './dossiers/counting.js';
export { festivalDossierOf } from './dossiers/festival-dossier.js';
export { labelDossierOf, type LabelDossierInput } from './dossiers/label-dossier.js';
export { masterDossierOf, type MasterDossierInput } from './dossiers/master-dossier.js';
export { bandcampHostOf, locatorsOf, type LocatorSource } from './locators.js';
export { mapLookup, refOf, type AgentLookup } from './lookup.js';
export { formatNamesOf, labelRefsOf, masterRecordOf, releaseRecordOf } from './master-record.js';
export { bandcampSignalsOf, tagCountsOf } from './signals/bandcamp-signals.js';
export { breakoutsQuery, computeSignals, onesToWatchQuery, tastemakersQuery, WINDOW_DAYS, type SignalInputs, type Signals } from './signals/engine.js';
export { mainGenreOf } from './signals/main-genre.js';
export { sortedObservations } from './signals/metric.js';
export { festivalPicksOf, labelPicksOf, type Pick } from './signals/picks.js';
export { matchesGenre, type SignalArtist } from './signals/signal-artist.js';
export { tastemakerList, type TastemakerInfo, type TastemakerStanding } from './signals/tastemakers.js';
export { assignSlugs, slugBase, slugify } from './slugs.js';
export { foldText, nameKey, tokensOf } from './text.js';
// Search scoring lives beside the memory index; adapters build their documents with it.
export { round6, searchEntry, TYPE_ORDER, type SearchEntry } from '../memory/search-index.js';
export { releaseUrlKey } from '../memory/catalogue-index.js';
