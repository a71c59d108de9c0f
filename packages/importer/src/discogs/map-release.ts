import type { FormatRow, LabelCreditRow, ReleaseRow } from '@catalogue/core';
import { mapCredits } from './map-credits.js';
import { RecordError } from './record-error.js';
import { childOf, childrenOf, childText, listTexts, nonNegativeIntOrNull, nullableText, positiveIntOrNull, type XmlNode } from './xml-node.js';

export function releaseIdOf(record: XmlNode): string | undefined {
  return record.attributes.id;
}

/** `<release id="…">` of the releases dump → ReleaseRow. */
export function mapRelease(record: XmlNode): ReleaseRow {
  const releaseId = positiveIntOrNull(releaseIdOf(record));
  if (releaseId === null) throw new RecordError('release has no id attribute');
  const master = childOf(record, 'master_id');
  return {
    release_id: releaseId,
    master_id: positiveIntOrNull(master?.text),
    is_main_release: master?.attributes.is_main_release === 'true',
    title: nullableText(childText(record, 'title')) ?? '',
    artists: mapCredits(record, 'artists'),
    extra_artists: mapCredits(record, 'extraartists'),
    labels: mapLabelCredits(record),
    formats: mapFormats(record),
    genres: listTexts(record, 'genres', 'genre'),
    styles: listTexts(record, 'styles', 'style'),
    country: nullableText(childText(record, 'country')),
    released: nullableText(childText(record, 'released')),
    data_quality: nullableText(childText(record, 'data_quality')),
  };
}

/** `<labels><label name="Svek" catno="SK032" id="5"/></labels>`: everything is in attributes. */
function mapLabelCredits(record: XmlNode): LabelCreditRow[] {
  const container = childOf(record, 'labels');
  if (!container) return [];
  const labels: LabelCreditRow[] = [];
  for (const label of childrenOf(container, 'label')) {
    const name = nullableText(label.attributes.name);
    if (name === null) continue;
    labels.push({
      discogs_id: positiveIntOrNull(label.attributes.id),
      name,
      catno: nullableText(label.attributes.catno),
    });
  }
  return labels;
}

/** `<formats><format name="Vinyl" qty="2"><descriptions><description>12"</description>…`. */
function mapFormats(record: XmlNode): FormatRow[] {
  const container = childOf(record, 'formats');
  if (!container) return [];
  const formats: FormatRow[] = [];
  for (const format of childrenOf(container, 'format')) {
    const name = nullableText(format.attributes.name);
    if (name === null) continue;
    formats.push({
      name,
      qty: nonNegativeIntOrNull(format.attributes.qty),
      descriptions: listTexts(format, 'descriptions', 'description'),
    });
  }
  return formats;
}
