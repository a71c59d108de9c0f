import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutRecord, rootName, skippedElements, withoutElements } from './record-cutter.js';

const cuts = (text: string, name: string): string[] => {
  const bytes = Buffer.from(text);
  const found: string[] = [];
  let at = 0;
  for (;;) {
    const cut = cutRecord(bytes, name, at);
    if (!cut) return found;
    found.push(bytes.toString('utf8', cut.start, cut.end));
    at = cut.end;
  }
};

describe('cutRecord', () => {
  it('cuts label records whose sublabels nest <label> elements and empty <label/> placeholders', () => {
    const text = '<labels>\n<label><id>1</id><sublabels><label id="2">Two</label><label/></sublabels></label>\n<label><id>3</id></label>\n</labels>';
    expect(cuts(text, 'label')).toEqual(['<label><id>1</id><sublabels><label id="2">Two</label><label/></sublabels></label>', '<label><id>3</id></label>']);
  });

  it('does not take <labels> or <released> for a record, and waits for a record the bytes end inside', () => {
    expect(cuts('<releases><release id="1"><released>1999</released></release><release id="2"><tit', 'release')).toEqual([
      '<release id="1"><released>1999</released></release>',
    ]);
    expect(cuts('<artists><artist><id>1</id></artist>', 'artist')).toEqual(['<artist><id>1</id></artist>']);
  });
});

describe('withoutElements', () => {
  const skipped = skippedElements(['images', 'tracks', 'notes']);

  it('cuts skipped subtrees and self-closing ones, and keeps elements that only share a prefix', () => {
    const record = Buffer.from('<release id="1"><images><image uri=""/></images><notes>a <b> c</notes><tracklist/><tracks/><title>T</title></release>');
    expect(withoutElements(record, skipped).toString()).toBe('<release id="1"><tracklist/><title>T</title></release>');
  });

  it('returns the record itself when there is nothing to cut, and leaves an unclosed element to the parser', () => {
    const plain = Buffer.from('<artist><id>1</id></artist>');
    expect(withoutElements(plain, skipped)).toBe(plain);
    expect(withoutElements(Buffer.from('<artist><notes>open</artist>'), skipped).toString()).toBe('<artist><notes>open</artist>');
  });

  /** The definition, on strings: leftmost skipped tag first, its subtree up to its first close. */
  const reference = (text: string, names: readonly string[]): string => {
    let out = '';
    let kept = 0;
    let at = 0;
    for (;;) {
      const lt = text.indexOf('<', at);
      if (lt < 0 || lt + 1 >= text.length) break;
      const name = names.find((n) => text.startsWith(`<${n}`, lt) && lt + n.length + 1 < text.length && /[>/ \t\n\r]/.test(text[lt + n.length + 1] as string));
      if (!name) {
        at = lt + 1;
        continue;
      }
      const gt = text.indexOf('>', lt + name.length + 1);
      if (gt < 0) break;
      let end = gt + 1;
      if (text[gt - 1] !== '/') {
        const close = text.indexOf(`</${name}>`, end);
        if (close < 0) break;
        end = close + name.length + 3;
      }
      out += text.slice(kept, lt);
      kept = end;
      at = end;
    }
    return out + text.slice(kept);
  };

  it('cuts exactly what the definition cuts, whatever the tags around (property)', () => {
    const names = ['images', 'tracks', 'tracklist', 'notes'];
    const set = skippedElements(names);
    const piece = fc.constantFrom(
      '<images>',
      '</images>',
      '<images/>',
      '<tracks a="1">',
      '</tracks>',
      '<tracklist>',
      '</tracklist>',
      '<tracksx>',
      '<notes',
      '</notes>',
      '<note>',
      '<title>T</title>',
      'text',
      ' ',
      '<',
      '>',
      '/',
      'é',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = `<release id="1">${pieces.join('')}</release>`;
        expect(withoutElements(Buffer.from(text), set).toString()).toBe(reference(text, names));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('rootName', () => {
  it('skips the XML declaration and comments', () => {
    const bytes = Buffer.from('<?xml version="1.0"?>\n<!-- dump -->\n<masters>\n<master id="1"/>');
    const root = rootName(bytes);
    expect(root?.name).toBe('masters');
    expect(bytes.toString('utf8', 0, root?.end)).toBe('<?xml version="1.0"?>\n<!-- dump -->\n<masters>');
    expect(rootName(Buffer.from('<?xml version="1.0"?>\n<mas'))).toBeNull();
  });
});
