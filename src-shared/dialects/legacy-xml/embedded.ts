import { decodeAttributeValueLeniently } from './entities';
import { setField } from './fields';
import { isMarkupError, readStartTag, tagNameAt } from './markup';

/**
 * `<chart>` and `<table>` tags the model writes inside text (docs/protocols/legacy-xml.md, "parser-accepted
 * compatibility tags"). The text itself stays verbatim in the delta; each tag that is
 * complete inside one item is also given structured. A tag split across deltas is not
 * reassembled here: deltas are short, and the reconstructed block's text is where an
 * in-text parser sees the whole tag.
 */
export interface EmbeddedTag {
  tag: string;
  attrs: Record<string, string>;
  body: string;
}

const EMBEDDED_TAGS = new Set(['chart', 'table']);

/** What most deltas hold: shared, so that a delta without a `<` allocates nothing. */
const NONE: readonly EmbeddedTag[] = Object.freeze([]);

export function findEmbeddedTags(text: string): readonly EmbeddedTag[] {
  let lt = text.indexOf('<');
  if (lt === -1) return NONE;
  const found: EmbeddedTag[] = [];
  // Tags whose close tag is not in the rest of the text: no later search can find it either.
  const neverClosed = new Set<string>();
  while (lt !== -1) {
    const name = tagNameAt(text, lt);
    let next = lt + 1;
    if (name !== null && EMBEDDED_TAGS.has(name)) {
      const start = readStartTag(text, lt);
      if (!isMarkupError(start)) {
        const attrs: Record<string, string> = {};
        for (const a of start.attributes)
          if (!Object.hasOwn(attrs, a.name)) setField(attrs, a.name, decodeAttributeValueLeniently(a.raw));
        if (start.selfClosing) {
          found.push({ tag: name, attrs, body: '' });
          next = start.end;
        } else if (!neverClosed.has(name)) {
          const close = text.indexOf(`</${name}>`, start.end);
          if (close === -1) {
            neverClosed.add(name);
          } else {
            found.push({ tag: name, attrs, body: text.slice(start.end, close) });
            next = close + name.length + 3;
          }
        }
      }
    }
    lt = text.indexOf('<', next);
  }
  return found;
}
