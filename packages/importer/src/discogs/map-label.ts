import type { LabelRow } from '@catalogue/core';
import { mapNameRef, mapNameRefs } from './map-credits.js';
import { RecordError } from './record-error.js';
import { childOf, childText, listTexts, nullableText, positiveIntOrNull, type XmlNode } from './xml-node.js';

export function labelIdOf(record: XmlNode): string | undefined {
  return childText(record, 'id');
}

/** `<label>` of the labels dump → LabelRow. */
export function mapLabel(record: XmlNode): LabelRow {
  const discogsId = positiveIntOrNull(labelIdOf(record));
  if (discogsId === null) throw new RecordError('label has no <id>');
  return {
    discogs_id: discogsId,
    name: nullableText(childText(record, 'name')) ?? '',
    profile: nullableText(childText(record, 'profile')),
    contact_info: nullableText(childText(record, 'contactinfo')),
    data_quality: nullableText(childText(record, 'data_quality')),
    urls: listTexts(record, 'urls', 'url'),
    parent: mapNameRef(childOf(record, 'parentLabel')),
    sublabels: mapNameRefs(record, 'sublabels', 'label'),
  };
}
