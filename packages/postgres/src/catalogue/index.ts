/**
 * createPostgresCatalogue: the Catalogue port on PostgreSQL. Each call fetches the rows that
 * concern the answer and assembles it with the same pure functions the memory catalogue uses
 * (core's catalogue/), so both answer identically. Every query goes through the backstops
 * with the request's AbortSignal.
 */
import { type Catalogue, kindOfClusterId, sourceIdOfClusterId } from '@catalogue/core';
import type { Sql } from 'postgres';
import { type BackstopOptions, guardFor } from '../backstops.js';
import { Agents } from './agents.js';
import { BandcampReads } from './bandcamp.js';
import { artistDossier, festivalDossier, labelDossier } from './dossiers.js';
import { masterDossier, masterJsonsByIds, mastersByIds } from './masters.js';
import type { Reader } from './reader.js';
import { facetCounts, searchDocuments } from './search.js';
import { breakoutList, onesToWatchList, tastemakerRanking } from './signals.js';

export type PostgresCatalogueOptions = BackstopOptions;

export function createPostgresCatalogue(sql: Sql, options: PostgresCatalogueOptions = {}): Catalogue {
  const guard = guardFor(sql, options);
  const read: Reader = (signal, build) => guard.query(signal, build);
  const agents = new Agents(sql, read);
  const bandcamp = new BandcampReads(sql, read);

  return {
    search: (query, call) => searchDocuments(sql, read, query, call?.signal),
    facets: (query, call) => facetCounts(sql, read, query, call?.signal),
    master: async (id, call) => (await mastersByIds(sql, read, [id], call?.signal))[0] ?? null,
    masters: (ids, call) => mastersByIds(sql, read, ids, call?.signal),
    mastersJson: (ids, call) => masterJsonsByIds(sql, read, ids, call?.signal),
    masterDossier: (id, call) => masterDossier(sql, read, id, call?.signal),
    findAgent: (key, kind, call) => agents.find(key, kind, call?.signal),
    artistDossier: (clusterId, call) => artistDossier(sql, read, bandcamp, clusterId, call?.signal),
    labelDossier: (clusterId, call) => labelDossier(sql, read, clusterId, call?.signal),
    festivalDossier: (clusterId, call) => festivalDossier(sql, read, clusterId, call?.signal),
    resolve: (input, call) => agents.resolve(input, call?.signal),
    bandcampArtist: async (clusterId, call) =>
      kindOfClusterId(clusterId) === 'artist' ? bandcamp.signals(sourceIdOfClusterId(clusterId), call?.signal) : null,
    bandcampManifest: (query, call) => bandcamp.manifest(query, call?.signal),
    bandcampReleases: (query, call) => bandcamp.releases(query, call?.signal),
    breakouts: (query, call) => breakoutList(sql, read, bandcamp, query, call?.signal),
    tastemakers: (query, call) => tastemakerRanking(sql, read, bandcamp, query, call?.signal),
    onesToWatch: (query, call) => onesToWatchList(sql, read, bandcamp, query, call?.signal),
  };
}
