/** `fields=identity,discography`: the facets a v2 artist answer keeps. */
import { invalidQuery } from '../../errors/api-error.js';
import { ARTIST_FIELDS, type ArtistField } from './schemas.js';

/** Each name is NFKC-normalized and trimmed; any name outside the facets is refused, named. */
export function parseArtistFields(raw: string | undefined): ArtistField[] {
  if (raw === undefined) return [...ARTIST_FIELDS];
  const fields: ArtistField[] = [];
  const unknown: string[] = [];
  for (const part of raw.split(',')) {
    const name = part.normalize('NFKC').trim();
    if ((ARTIST_FIELDS as readonly string[]).includes(name)) {
      if (!fields.includes(name as ArtistField)) fields.push(name as ArtistField);
    } else {
      unknown.push(name);
    }
  }
  if (unknown.length > 0) {
    throw invalidQuery(unknown.map((name) => ({ path: 'fields', message: `"${name}" is not a facet; allowed: ${ARTIST_FIELDS.join(', ')}`, value: name })));
  }
  return fields;
}
