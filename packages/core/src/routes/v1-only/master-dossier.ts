/** GET /api/v1/dossier/master/{id}: the master, its releases and related masters. Demoted like the master route. */
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { MasterDossierSchema } from '../../schemas/records.js';
import { RECORD_CACHE } from '../shared/cache.js';
import { parseMasterId } from '../shared/keys.js';
import { withCreditLinks } from '../shared/links.js';
import { masterDeprecation } from './deprecations.js';
import { masterNotFound, withMasterLinks } from './master-answers.js';

export const masterDossierRoute = route({
  method: 'GET',
  path: '/api/v1/dossier/master/:id',
  access: 'key',
  cache: RECORD_CACHE,
  summary: 'Per-master dossier: the master, its releases and related masters',
  tags: ['dossiers'],
  responses: { 200: { description: 'The master dossier.', schema: MasterDossierSchema } },
  errors: ['invalid_master_id', 'master_not_found'],
  deprecation: masterDeprecation,
  async handler({ params, ports, lifetime, config, base }) {
    const id = parseMasterId(params.id ?? null);
    const dossier = await ports.catalogue.masterDossier(id, lifetime);
    if (!dossier) throw masterNotFound(id);
    return json({
      ...dossier,
      master: withMasterLinks(dossier.master, config.baseUrl, base),
      releases: dossier.releases.map((release) => withCreditLinks(release, config.baseUrl, base)),
      _links: { self: `${config.baseUrl}/api/v1/dossier/master/${id}`, master: `${config.baseUrl}/api/v1/masters/${id}` },
    });
  },
});
