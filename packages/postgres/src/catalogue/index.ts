/**
 * createPostgresCatalogue: the Catalogue port on PostgreSQL. Each call fetches the rows that
 * concern the answer and assembles it with the same pure functions the memory catalogue uses
 * (core's catalogue/), so both answer identically. Every query goes through the backstops,
 * which ask the request's lifetime whether it ended (core's abortProbeOf).
 */
import { abortProbeOf, type Catalogue, kindOfClusterId, sourceIdOfClusterId } from '@catalogue/core';
import type { Sql } from 'postgres';
import { type BackstopOptions, guardFor } from '../backstops.js';
import { Agents } from './agents.js';
import { BandcampReads } from './bandcamp.js';
import { artistDossier, festivalDossier, labelDossier } from './dossiers.js';
import { type MasterReads, masterDetailsByIds, masterDossier, masterJsonsByIds, mastersByIds } from './masters.js';
import type { Reader } from './reader.js';
import type { RecordCache } from './record-cache.js';
import { facetCounts, type PrefixHint, searchDocuments, searchPageOf } from './search.js';
import { breakoutList, onesToWatchList, tastemakerRanking } from './signals.js';
import { StoredRecords } from './stored-records.js';

export interface PostgresCatalogueOptions extends BackstopOptions {
  /** Master records kept in process until the next import (record-cache.ts). */
  recordCache?: RecordCache;
  /**
   * A one-word search with a style filter whose word + style entries number fewer than this
   * scores them at once instead of reading the word's ranked entries first (search.ts,
   * DIRECT_SCORING_BELOW, 100); 0 never does. The answer is the same either way.
   */
  directScoringBelow?: number;
  /**
   * A read of at most this many master records joins the other small reads of the same turn
   * of the event loop in one query (stored-records.ts, COALESCE_UP_TO, 32); 0 never joins.
   */
  coalesceRecordReadsUpTo?: number;
  /**
   * The process's filter of the vocabulary (vocabulary-hint.ts): a first search page with a word
   * no vocabulary word starts with asks for its corrections at once (search.ts). None: every
   * typo takes the longer path; the answer is the same either way.
   */
  vocabularyHint?: PrefixHint;
}

export function createPostgresCatalogue(sql: Sql, options: PostgresCatalogueOptions = {}): Catalogue {
  const guard = guardFor(sql, options);
  const read: Reader = (abort, build) => guard.query(abort, build);
  const agents = new Agents(sql, read);
  const bandcamp = new BandcampReads(sql, read);
  const masterReads: MasterReads = {
    sql,
    read,
    stored: new StoredRecords(sql, read, options.coalesceRecordReadsUpTo),
    cache: options.recordCache,
  };

  return {
    search: (query, lifetime) => searchDocuments(sql, read, query, abortProbeOf(lifetime), options.directScoringBelow, options.vocabularyHint),
    searchPage: (query, lifetime) => searchPageOf(sql, read, query, abortProbeOf(lifetime), options.directScoringBelow, undefined, options.vocabularyHint),
    facets: (query, lifetime) => facetCounts(sql, read, query, abortProbeOf(lifetime)),
    master: async (id, lifetime) => (await mastersByIds(masterReads, [id], lifetime))[0] ?? null,
    masters: (ids, lifetime) => mastersByIds(masterReads, ids, lifetime),
    mastersJson: (ids, lifetime) => masterJsonsByIds(masterReads, ids, lifetime),
    masterDossier: (id, lifetime) => masterDossier(sql, read, id, abortProbeOf(lifetime)),
    masterDetails: (ids, lifetime) => masterDetailsByIds(masterReads, ids, lifetime),
    findAgent: (key, kind, lifetime) => agents.find(key, kind, abortProbeOf(lifetime)),
    artistDossier: (clusterId, lifetime) => artistDossier(sql, read, bandcamp, clusterId, abortProbeOf(lifetime)),
    labelDossier: (clusterId, lifetime) => labelDossier(sql, read, clusterId, abortProbeOf(lifetime)),
    festivalDossier: (clusterId, lifetime) => festivalDossier(sql, read, clusterId, abortProbeOf(lifetime)),
    resolve: (input, lifetime) => agents.resolve(input, abortProbeOf(lifetime)),
    bandcampArtist: async (clusterId, lifetime) =>
      kindOfClusterId(clusterId) === 'artist' ? bandcamp.signals(sourceIdOfClusterId(clusterId), abortProbeOf(lifetime)) : null,
    bandcampManifest: (query, lifetime) => bandcamp.manifest(query, abortProbeOf(lifetime)),
    bandcampReleases: (query, lifetime) => bandcamp.releases(query, abortProbeOf(lifetime)),
    breakouts: (query, lifetime) => breakoutList(sql, read, bandcamp, query, abortProbeOf(lifetime)),
    tastemakers: (query, lifetime) => tastemakerRanking(sql, read, bandcamp, query, abortProbeOf(lifetime)),
    onesToWatch: (query, lifetime) => onesToWatchList(sql, read, bandcamp, query, abortProbeOf(lifetime)),
  };
}
