/** GET /api/v1/masters/{id}: one master record. Demoted: in v2 the record sits in its artist's discography. */
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { MasterSchema } from '../../schemas/records.js';
import { parseMasterId } from '../shared/keys.js';
import { masterDeprecation } from './deprecations.js';
import { masterNotFound, withMasterLinks } from './master-answers.js';

export const masterRoute = route({
  method: 'GET',
  path: '/api/v1/masters/:id',
  access: 'key',
  summary: 'One master release',
  tags: ['masters'],
  responses: { 200: { description: 'The master record.', schema: MasterSchema } },
  errors: ['invalid_master_id', 'master_not_found'],
  deprecation: masterDeprecation,
  async handler({ params, ports, lifetime, config, base }) {
    const id = parseMasterId(params.id ?? null);
    const master = await ports.catalogue.master(id, lifetime);
    if (!master) throw masterNotFound(id);
    return json(withMasterLinks(master, config.baseUrl, base));
  },
});
