import { isMarkupError, LESS_THAN, readStartTag } from './markup';
import type { StreamedType } from './item';
import { BLOCK_TAG_PREFIX, itemKind, SERVER_TOOL_ID_PREFIX, STREAMED_BLOCK_TAGS } from './vocabulary';

/*
 * What an item is, read from its text alone before it is decoded: one of the four streamed
 * tags, a complete element, an unknown tag of the stream's own namespace. The decoder asks on
 * every item, so these read as few characters as they can.
 */

const GREATER_THAN = 0x3e;

export interface StreamedTag {
  type: StreamedType;
  closing: boolean;
}

/** The four streamed tags, shared: the check runs on every item. */
const STREAMED_TAGS: ReadonlyMap<string, StreamedTag> = new Map(
  [...STREAMED_BLOCK_TAGS].flatMap(([name, type]): [string, StreamedTag][] => [
    [`<${name}>`, { type, closing: false }],
    [`</${name}>`, { type, closing: true }],
  ]),
);

/** The longest streamed tag: a longer item is none, and is not hashed for the lookup. */
const LONGEST_STREAMED_TAG = Math.max(...[...STREAMED_TAGS.keys()].map((tag) => tag.length));

/** `<content-block-text>`, `</content-block-thinking>`…: the whole item is the tag. */
export function streamedTag(data: string): StreamedTag | null {
  // Most items are deltas: two character reads settle them.
  if (
    data.length > LONGEST_STREAMED_TAG ||
    data.charCodeAt(0) !== LESS_THAN ||
    data.charCodeAt(data.length - 1) !== GREATER_THAN
  )
    return null;
  return STREAMED_TAGS.get(data) ?? null;
}

/**
 * The tag of an item that is wholly a tag or element of the stream's own `content-block-`
 * namespace that the vocabulary does not have (`<content-block-rollback …/>`,
 * `</content-block-redacted_thinking>`), or null. Inside a block such an item is text as far
 * as the protocol goes, but a model does not write the stream's own markup: it is the
 * server's, and worth a word. (`<chart>`, `<table>` and other text stay text without one.)
 */
export function unknownBlockTag(data: string, tag: string | null): string | null {
  if (!data.endsWith('>')) return null;
  const name = tag ?? (data.startsWith('</') ? data.slice(2, -1).trimEnd() : null);
  if (
    name === null ||
    !name.startsWith(BLOCK_TAG_PREFIX) ||
    itemKind(name) !== undefined ||
    STREAMED_BLOCK_TAGS.has(name)
  )
    return null;
  const whole =
    tag === null ? /^[\w.-]+$/.test(name) : data.indexOf('>') === data.length - 1 || isCompleteElement(data, name);
  return whole ? name : null;
}

/** The item ends its element: with `/>`, or with a close tag of the vocabulary (its own, or a wrong one). */
export function isCompleteElement(data: string, tag: string): boolean {
  return data.endsWith(`</${tag}>`) || data.endsWith('/>') || trailingVocabularyCloseTag(data, tag.length + 1) !== null;
}

/**
 * The close tag of a vocabulary element that `text` ends with, at or after `from`, or null.
 * Only vocabulary names count: text that merely ends like markup (`…</b>`) is no close tag.
 */
export function trailingVocabularyCloseTag(text: string, from: number): { tag: string; index: number } | null {
  if (!text.endsWith('>')) return null;
  const index = text.lastIndexOf('</');
  if (index < from) return null;
  const tag = text.slice(index + 2, -1);
  return itemKind(tag) !== undefined || STREAMED_BLOCK_TAGS.has(tag) ? { tag, index } : null;
}

export function isServerToolId(id: string | undefined): boolean {
  return id !== undefined && id.startsWith(SERVER_TOOL_ID_PREFIX);
}

/** An attribute's raw value read before unescaping (ids never hold backslashes or entities that matter here). */
export function rawAttribute(data: string, name: string): string | undefined {
  const start = readStartTag(data, 0);
  return isMarkupError(start) ? undefined : start.attributes.find((a) => a.name === name)?.raw;
}
