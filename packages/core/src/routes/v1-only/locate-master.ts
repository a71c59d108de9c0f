/** Where a master sits in v2: its main artist and its index in that artist's discography (wayfind). */
import type { CallOptions, Catalogue } from '../../ports/index.js';

interface MasterLocation {
  master_id: number;
  title: string;
  artist: { cluster_id: number; slug: string | null; name: string };
  to: string;
  index: number | null;
}

/** The master's main artist and the master's index in that artist's discography. */
export async function locateMaster(catalogue: Catalogue, id: number, lifetime: CallOptions): Promise<MasterLocation | null> {
  const master = await catalogue.master(id, lifetime);
  const main = master?.artists[0];
  if (!master || !main) return null;
  const dossier = await catalogue.artistDossier(main.cluster_id, lifetime);
  const index = dossier?.discography?.masters.findIndex((m) => m.master_id === id) ?? -1;
  return {
    master_id: id,
    title: master.title,
    artist: { cluster_id: main.cluster_id, slug: main.slug, name: main.name },
    to: `/api/v2/artist/${main.cluster_id}?fields=discography`,
    index: index >= 0 ? index : null,
  };
}
