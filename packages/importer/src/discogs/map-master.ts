import type { MasterRow } from '@catalogue/core';
import { mapCredits } from './map-credits.js';
import { RecordError } from './record-error.js';
import { childText, listTexts, nullableText, positiveIntOrNull, type XmlNode } from './xml-node.js';

export function masterIdOf(record: XmlNode): string | undefined {
  return record.attributes.id;
}

/** `<master id="…">` of the masters dump → MasterRow. `<year>0</year>` (unknown) → null. */
export function mapMaster(record: XmlNode): MasterRow {
  const masterId = positiveIntOrNull(masterIdOf(record));
  if (masterId === null) throw new RecordError('master has no id attribute');
  return {
    master_id: masterId,
    title: nullableText(childText(record, 'title')) ?? '',
    year: positiveIntOrNull(childText(record, 'year')),
    main_release_id: positiveIntOrNull(childText(record, 'main_release')),
    artists: mapCredits(record, 'artists'),
    genres: listTexts(record, 'genres', 'genre'),
    styles: listTexts(record, 'styles', 'style'),
    data_quality: nullableText(childText(record, 'data_quality')),
  };
}
