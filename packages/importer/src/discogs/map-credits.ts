import type { CreditRow, DiscogsNameRef } from '@catalogue/core';
import { childOf, childrenOf, childText, nullableText, positiveIntOrNull, type XmlNode } from './xml-node.js';

/**
 * `<artists><artist><id/><name/><anv/><join/><role/></artist></artists>` → credits. A credit
 * without an id cannot be linked to an artist row (CreditRow.discogs_id is required), so it is
 * left out rather than failing the whole release.
 */
export function mapCredits(record: XmlNode, list: 'artists' | 'extraartists'): CreditRow[] {
  const container = childOf(record, list);
  if (!container) return [];
  const credits: CreditRow[] = [];
  for (const artist of childrenOf(container, 'artist')) {
    const discogsId = positiveIntOrNull(childText(artist, 'id'));
    const name = nullableText(childText(artist, 'name'));
    if (discogsId === null || name === null) continue;
    credits.push({
      discogs_id: discogsId,
      name,
      anv: nullableText(childText(artist, 'anv')),
      join: nullableText(childText(artist, 'join')),
      role: nullableText(childText(artist, 'role')),
    });
  }
  return credits;
}

/**
 * `<aliases><name id="239">Jesper Dahlbäck</name></aliases>` → name refs. The older artist dump
 * also writes bare `<id>` siblings inside `<members>`; only `<name>` elements are read, so both
 * formats give the same refs. Empty `<label/>` placeholders (sublabels) are dropped.
 */
export function mapNameRefs(record: XmlNode, list: string, item: string): DiscogsNameRef[] {
  const container = childOf(record, list);
  if (!container) return [];
  const refs: DiscogsNameRef[] = [];
  for (const element of childrenOf(container, item)) {
    const ref = mapNameRef(element);
    if (ref) refs.push(ref);
  }
  return refs;
}

export function mapNameRef(element: XmlNode | undefined): DiscogsNameRef | null {
  if (!element) return null;
  const name = nullableText(element.text);
  if (name === null) return null;
  return { discogs_id: positiveIntOrNull(element.attributes.id), name };
}
