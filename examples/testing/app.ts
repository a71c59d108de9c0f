/**
 * A small app that uses the catalogue service: "what is this record?" answered from a master
 * id. It takes any fetch-like function, so tests hand it an in-memory service and production
 * hands it the real API.
 */
export type CatalogueFetch = (path: string, init?: RequestInit) => Promise<Response>;

export interface RecordCard {
  title: string;
  year: number | null;
  line: string;
}

export async function recordCard(fetchCatalogue: CatalogueFetch, masterId: number): Promise<RecordCard | null> {
  const response = await fetchCatalogue(`/api/v1/masters/${masterId}`);
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`catalogue answered ${response.status}`);
  const master = (await response.json()) as { title: string; year: number | null; styles?: string[] };
  const styles = master.styles?.length ? ` — ${master.styles.join(', ')}` : '';
  return { title: master.title, year: master.year, line: `${master.title}${master.year ? ` (${master.year})` : ''}${styles}` };
}
