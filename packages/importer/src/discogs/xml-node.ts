/**
 * A tiny element tree for ONE Discogs record at a time. The parser builds it from SAX events
 * and throws it away once the record is mapped to a row, so memory stays constant.
 */
export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

export function childOf(node: XmlNode, name: string): XmlNode | undefined {
  return node.children.find((child) => child.name === name);
}

export function childrenOf(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((child) => child.name === name);
}

/** Text of the first child with this name; undefined when the element is absent. */
export function childText(node: XmlNode, name: string): string | undefined {
  return childOf(node, name)?.text;
}

/**
 * The older dumps write `<profile/>`, the newer ones leave the element out: both mean "no value",
 * so an absent, empty or blank text is null.
 */
export function nullableText(text: string | undefined): string | null {
  if (text === undefined || text.trim() === '') return null;
  return text;
}

/** Texts of the `<item>` children of `<list>`, blanks dropped (`<urls><url/></urls>`). */
export function listTexts(node: XmlNode, list: string, item: string): string[] {
  const container = childOf(node, list);
  if (!container) return [];
  const texts: string[] = [];
  for (const child of childrenOf(container, item)) {
    const text = nullableText(child.text);
    if (text !== null) texts.push(text);
  }
  return texts;
}

/** A positive integer id, or null for anything else (absent, blank, 0, not a number). */
export function positiveIntOrNull(text: string | undefined): number | null {
  if (text === undefined) return null;
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** A non-negative integer (format quantities may be 0), or null. */
export function nonNegativeIntOrNull(text: string | undefined): number | null {
  if (text === undefined) return null;
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : null;
}
