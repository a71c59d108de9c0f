/** GET /api/v1/masters/{id}: one master record. Demoted: in v2 the record sits in its artist's discography. */
import { JSON_TYPE, Reply } from '../../http/json.js';
import { route } from '../../http/route.js';
import { MasterSchema } from '../../schemas/records.js';
import { RECORD_CACHE } from '../shared/cache.js';
import { parseMasterId } from '../shared/keys.js';
import { recordAnswer, variantOf } from '../shared/record-etags.js';
import { masterDeprecation } from './deprecations.js';
import { masterAnswerText, masterNotFound, withMasterLinks } from './master-answers.js';

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
    const variant = variantOf(config.baseUrl, base);
    // A catalogue that holds records serialized (PostgreSQL's stored records) hands the text
    // over: the links are spliced in, and the record is never parsed only to be serialized again.
    if (ports.catalogue.mastersJson) {
      const [found] = await ports.catalogue.mastersJson([id], lifetime);
      if (!found) throw masterNotFound(id);
      const json = found.json;
      const answer = recordAnswer(json, variant, () => masterAnswerText(json, id, config.baseUrl, base), ports.hasher);
      return new Reply(200, answer.body, { 'content-type': JSON_TYPE }, answer.etag);
    }
    const master = await ports.catalogue.master(id, lifetime);
    if (!master) throw masterNotFound(id);
    // Body and ETag made once per record (routes/shared/record-etags.ts), not per request.
    const answer = recordAnswer(master, variant, () => JSON.stringify(withMasterLinks(master, config.baseUrl, base)), ports.hasher);
    return new Reply(200, answer.body, { 'content-type': JSON_TYPE }, answer.etag);
  },
});
