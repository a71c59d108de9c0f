/** GET /api/v1/masters/{id}: one master record. Demoted: in v2 the record sits in its artist's discography. */
import { json, jsonText } from '../../http/json.js';
import { route } from '../../http/route.js';
import { MasterSchema } from '../../schemas/records.js';
import { RECORD_CACHE } from '../shared/cache.js';
import { parseMasterId } from '../shared/keys.js';
import { creditLinksInText, masterLinks } from '../shared/links.js';
import { masterDeprecation } from './deprecations.js';
import { masterNotFound, withLinksSpliced, withMasterLinks } from './master-answers.js';

export const masterRoute = route({
  method: 'GET',
  path: '/api/v1/masters/:id',
  access: 'key',
  cache: RECORD_CACHE,
  summary: 'One master release',
  tags: ['masters'],
  responses: { 200: { description: 'The master record.', schema: MasterSchema } },
  errors: ['invalid_master_id', 'master_not_found'],
  deprecation: masterDeprecation,
  async handler({ params, ports, lifetime, config, base }) {
    const id = parseMasterId(params.id ?? null);
    // A catalogue that holds records serialized (PostgreSQL's stored records) hands the text
    // over: the links are spliced in, and the record is never parsed only to be serialized again.
    if (ports.catalogue.mastersJson) {
      const [found] = await ports.catalogue.mastersJson([id], lifetime);
      if (!found) throw masterNotFound(id);
      return jsonText(withLinksSpliced(creditLinksInText(found.json, config.baseUrl, base), JSON.stringify(masterLinks(config.baseUrl, base, id))));
    }
    const master = await ports.catalogue.master(id, lifetime);
    if (!master) throw masterNotFound(id);
    return json(withMasterLinks(master, config.baseUrl, base));
  },
});
