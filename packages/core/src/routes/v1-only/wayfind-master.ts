/** GET /api/v1/wayfind/master/{id}: where a master sits in v2 — the artist path and the JSON pointer in its answer. */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { named } from '../../schemas/named.js';
import { parseMasterId } from '../shared/keys.js';
import { locateMaster } from './locate-master.js';
import { masterNotFound } from './master-answers.js';

export const MasterWayfindSchema = named(
  'MasterWayfind',
  v.object({
    master_id: v.number(),
    title: v.string(),
    artist: v.object({ cluster_id: v.number(), slug: v.nullable(v.string()), name: v.string() }),
    to: v.pipe(v.string(), v.description('The v2 artist path whose discography holds the master.')),
    method: v.literal('GET'),
    pointer: v.pipe(
      v.nullable(v.string()),
      v.description('JSON pointer of the master record in that answer; null when the master is beyond the discography’s 500 newest.'),
    ),
    releases_pointer: v.nullable(v.string()),
    note: v.string(),
  }),
);

export const wayfindMasterRoute = route({
  method: 'GET',
  path: '/api/v1/wayfind/master/:id',
  access: 'key',
  summary: 'Migration helper: where a master sits in v2',
  tags: ['migration'],
  responses: { 200: { description: 'The v2 artist path and the JSON pointer of the master in it.', schema: MasterWayfindSchema } },
  errors: ['invalid_master_id', 'master_not_found'],
  async handler({ params, ports, lifetime }) {
    const id = parseMasterId(params.id ?? null);
    const located = await locateMaster(ports.catalogue, id, lifetime);
    if (!located) throw masterNotFound(id);
    const at = located.index === null ? null : `/discography/masters/${located.index}`;
    return json({
      master_id: id,
      title: located.title,
      artist: located.artist,
      to: located.to,
      method: 'GET',
      pointer: at && `${at}/master`,
      releases_pointer: at && `${at}/releases`,
      note:
        at === null
          ? `Master ${id} belongs to ${located.artist.name}, beyond the 500 newest masters the discography lists.`
          : `GET ${located.to} and read ${at}/master (the record) and ${at}/releases.`,
    });
  },
});
