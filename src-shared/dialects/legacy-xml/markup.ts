/**
 * Just enough XML to read one stream item: a start tag with its attributes, and the name at
 * the head of an item. Items are whole SSE events, never the growing stream, and are read
 * with index scans, so cost is linear in the item.
 */

export interface RawAttribute {
  name: string;
  /** The value as written between the quotes, references not yet decoded. */
  raw: string;
}

export interface StartTag {
  name: string;
  attributes: RawAttribute[];
  /** Index just past the tag's `>`. */
  end: number;
  selfClosing: boolean;
}

export interface MarkupError {
  error: string;
  /** Offset in the text where reading failed. */
  index: number;
}

/** `[A-Za-z_]`, by character code (a regular expression per character is several times slower). */
function isNameStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
}

/** `[A-Za-z0-9_.:-]` */
function isNameChar(code: number): boolean {
  return isNameStart(code) || (code >= 0x30 && code <= 0x3a) || code === 0x2e || code === 0x2d;
}

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

function readName(text: string, start: number): number {
  if (start >= text.length || !isNameStart(text.charCodeAt(start))) return start;
  let i = start + 1;
  while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
  return i;
}

/** The element name right after a `<` at `start` (`null` for `</…`, `<!…`, text). */
export function tagNameAt(text: string, start = 0): string | null {
  if (text.charAt(start) !== '<') return null;
  const end = readName(text, start + 1);
  if (end === start + 1) return null;
  const after = text.charAt(end);
  return after === '' || after === '>' || after === '/' || isSpace(after) ? text.slice(start + 1, end) : null;
}

/** Read the start tag beginning with `<` at `start`. Attribute values must be quoted. */
export function readStartTag(text: string, start = 0): StartTag | MarkupError {
  const name = tagNameAt(text, start);
  if (name === null) return { error: 'no element name after "<"', index: start };
  const attributes: RawAttribute[] = [];
  let i = start + 1 + name.length;
  for (;;) {
    while (i < text.length && isSpace(text.charAt(i))) i++;
    const ch = text.charAt(i);
    if (ch === '') return { error: `start tag <${name}> is not closed by ">"`, index: i };
    if (ch === '>') return { name, attributes, end: i + 1, selfClosing: false };
    if (ch === '/') {
      if (text.charAt(i + 1) === '>') return { name, attributes, end: i + 2, selfClosing: true };
      return { error: `"/" inside start tag <${name}> is not followed by ">"`, index: i };
    }
    const nameEnd = readName(text, i);
    if (nameEnd === i) return { error: `unexpected ${JSON.stringify(ch)} in start tag <${name}>`, index: i };
    const attrName = text.slice(i, nameEnd);
    i = nameEnd;
    while (i < text.length && isSpace(text.charAt(i))) i++;
    if (text.charAt(i) !== '=') return { error: `attribute ${attrName} of <${name}> has no value`, index: i };
    i++;
    while (i < text.length && isSpace(text.charAt(i))) i++;
    const quote = text.charAt(i);
    if (quote !== '"' && quote !== "'")
      return { error: `value of attribute ${attrName} of <${name}> is not quoted`, index: i };
    const close = text.indexOf(quote, i + 1);
    if (close === -1)
      return { error: `value of attribute ${attrName} of <${name}> is never closed by ${quote}`, index: i };
    attributes.push({ name: attrName, raw: text.slice(i + 1, close) });
    i = close + 1;
  }
}

export function isMarkupError(value: StartTag | MarkupError): value is MarkupError {
  return 'error' in value;
}

/** `<`: an item that starts with anything else is no tag. */
export const LESS_THAN = 0x3c;

export const CDATA_OPEN = '<![CDATA[';
export const CDATA_CLOSE = ']]>';
