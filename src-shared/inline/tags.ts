import { decodeAttributeValueLeniently } from '../dialects/legacy-xml/entities';
import { isMarkupError, readStartTag } from '../dialects/legacy-xml/markup';

/**
 * Reading one tag the model wrote, character by character, without looking back at the text
 * before it: the parser holds the candidate (`<sea…`) until it is decided, so it never shows a
 * partial opening marker. A candidate longer than MAX_TAG is text: holding without bound would
 * hide real content behind a stray `<`.
 */
export const MAX_TAG = 1024;

export interface TagCandidate {
  text: string;
  closing: boolean;
  name: string;
  phase: 'open' | 'name' | 'attrs' | 'close-end' | 'self-close';
  quote: string;
}

export type TagStep = 'more' | 'done' | 'fail';

export function newTagCandidate(): TagCandidate {
  return { text: '<', closing: false, name: '', phase: 'open', quote: '' };
}

function isNameStart(c: string): boolean {
  const code = c.charCodeAt(0);
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

function isNameChar(c: string): boolean {
  const code = c.charCodeAt(0);
  return isNameStart(c) || (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x3a || code === 0x2d;
}
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * Add one character. `allowed(name, exact)` says whether a tag name (or, with `exact` false,
 * a name still being read) can be one this context cares about. On 'fail' the character is
 * not part of the candidate: the caller releases `text` and reads the character again.
 */
export function stepTag(
  tag: TagCandidate,
  c: string,
  allowed: (name: string, closing: boolean, exact: boolean) => boolean,
): TagStep {
  if (tag.text.length >= MAX_TAG) return 'fail';
  switch (tag.phase) {
    case 'open':
      if (c === '/' && !tag.closing) {
        tag.closing = true;
        tag.text += c;
        return 'more';
      }
      if (!isNameStart(c) || !allowed(c, tag.closing, false)) return 'fail';
      tag.phase = 'name';
      tag.name = c;
      tag.text += c;
      return 'more';
    case 'name':
      if (isNameChar(c)) {
        if (!allowed(tag.name + c, tag.closing, false)) return 'fail';
        tag.name += c;
        tag.text += c;
        return 'more';
      }
      if (!allowed(tag.name, tag.closing, true)) return 'fail';
      if (c === '>') {
        tag.text += c;
        return 'done';
      }
      if (isSpace(c)) {
        tag.phase = tag.closing ? 'close-end' : 'attrs';
        tag.text += c;
        return 'more';
      }
      if (c === '/' && !tag.closing) {
        tag.phase = 'self-close';
        tag.text += c;
        return 'more';
      }
      return 'fail';
    case 'close-end':
      if (isSpace(c)) {
        tag.text += c;
        return 'more';
      }
      if (c !== '>') return 'fail';
      tag.text += c;
      return 'done';
    case 'self-close':
      if (c !== '>') return 'fail';
      tag.text += c;
      return 'done';
    case 'attrs':
      if (tag.quote !== '') {
        if (c === tag.quote) tag.quote = '';
      } else if (c === '"' || c === "'") {
        tag.quote = c;
      } else if (c === '<') {
        return 'fail';
      } else if (c === '>') {
        tag.text += c;
        return 'done';
      }
      tag.text += c;
      return 'more';
  }
}

export interface ReadTag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attributes: Record<string, string>;
}

/** A finished candidate as a tag; null when its attributes are not well formed (it stays text). */
export function readTag(tag: TagCandidate): ReadTag | null {
  if (tag.closing) return { name: tag.name, closing: true, selfClosing: false, attributes: {} };
  const start = readStartTag(tag.text);
  if (isMarkupError(start)) return null;
  const attributes: Record<string, string> = {};
  for (const a of start.attributes) attributes[a.name] = decodeAttributeValueLeniently(a.raw);
  return { name: start.name, closing: false, selfClosing: start.selfClosing, attributes };
}
