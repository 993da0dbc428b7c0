import { KIND, type EnvelopeKind } from '../../envelope/vocabulary';
import type { StreamedType } from './item';
import { tagNameAt } from './markup';

/**
 * The item vocabulary of the legacy XML stream (docs/protocols/legacy-xml.md, docs/protocols/upstream-protocol.md §5 #22) and
 * how each item maps to the shared envelope vocabulary (docs/protocols/json-envelopes.md's migration table).
 */

/** Who put the item on the queue, which decides its escaping (see escaping.ts). */
export type Producer = 'formatter' | 'agent';

export type ItemShape =
  /** Empty element whose `data` attribute holds HTML-escaped JSON. */
  | 'data-attribute'
  /** Empty element with id, name and JSON `arguments` attributes. */
  | 'tool-call'
  /** id and name attributes, CDATA body. */
  | 'cdata-result'
  /** id and name attributes; CDATA body, or `<text>` CDATA plus `<image />` tags. */
  | 'tool-result'
  /** No attributes, CDATA body. */
  | 'cdata'
  | 'citations';

export interface ItemKind {
  type: EnvelopeKind;
  producer: Producer;
  shape: ItemShape;
}

const ITEMS: ReadonlyMap<string, ItemKind> = new Map<string, ItemKind>([
  ['meta_init', { type: KIND.meta_init, producer: 'agent', shape: 'data-attribute' }],
  ['meta_final', { type: KIND.meta_final, producer: 'agent', shape: 'data-attribute' }],
  ['awaiting_frontend_tools', { type: KIND.awaiting_frontend_tools, producer: 'agent', shape: 'data-attribute' }],
  ['content-block-tool_call', { type: KIND.tool_call, producer: 'formatter', shape: 'tool-call' }],
  ['content-block-server_tool_call', { type: KIND.server_tool_call, producer: 'formatter', shape: 'tool-call' }],
  ['content-block-tool_result', { type: KIND.tool_result, producer: 'agent', shape: 'tool-result' }],
  ['content-block-server_tool_result', { type: KIND.server_tool_result, producer: 'formatter', shape: 'cdata-result' }],
  ['content-block-meta_files', { type: KIND.meta_files, producer: 'agent', shape: 'cdata' }],
  ['content-block-error', { type: KIND.error, producer: 'formatter', shape: 'cdata' }],
  ['citations', { type: KIND.citation, producer: 'formatter', shape: 'citations' }],
]);

/** The streamed blocks: their open and close tags are items of their own. */
export const STREAMED_BLOCK_TAGS: ReadonlyMap<string, StreamedType> = new Map([
  ['content-block-text', KIND.text],
  ['content-block-thinking', KIND.thinking],
]);

const DYNAMIC_RESULT_SUFFIX = '_tool_result';
export const BLOCK_TAG_PREFIX = 'content-block-';

/**
 * The server-tool result tag names the demo parser also accepts: any tag ending in
 * `_tool_result` (`content-block-web_search_tool_result`, `bash_code_execution_tool_result`);
 * the result name is the tag without the `content-block-` prefix.
 */
export function dynamicResultName(tag: string): string | null {
  if (!tag.endsWith(DYNAMIC_RESULT_SUFFIX) || ITEMS.has(tag)) return null;
  const name = tag.startsWith(BLOCK_TAG_PREFIX) ? tag.slice(BLOCK_TAG_PREFIX.length) : tag;
  return name.length > DYNAMIC_RESULT_SUFFIX.length ? name : null;
}

const DYNAMIC_RESULT: ItemKind = { type: KIND.server_tool_result, producer: 'formatter', shape: 'cdata-result' };

/** How an element item with this tag decodes, or undefined when the tag is not in the vocabulary. */
export function itemKind(tag: string): ItemKind | undefined {
  return ITEMS.get(tag) ?? (dynamicResultName(tag) !== null ? DYNAMIC_RESULT : undefined);
}

/**
 * The vocabulary tag an item starts with (`meta_init`, `content-block-text`, a dynamic
 * `*_tool_result`…), or null. Cheap enough for format detection on every event: it reads
 * only the head of the data.
 */
export function xmlItemTag(data: string): string | null {
  const name = tagNameAt(data, 0);
  if (name === null) return null;
  return STREAMED_BLOCK_TAGS.has(name) || itemKind(name) !== undefined ? name : null;
}

/**
 * Whether the data is an item of the legacy XML vocabulary: an element or open tag of one,
 * or the close tag of a streamed block. Text deltas are items too but cannot be told from
 * other text, so they do not count.
 */
export function isXmlItem(data: string): boolean {
  if (data.startsWith('</')) return data.endsWith('>') && STREAMED_BLOCK_TAGS.has(data.slice(2, -1));
  return xmlItemTag(data) !== null;
}

/** Server tool ids: before f035b00 server tools used the client tool tags with these ids. */
export const SERVER_TOOL_ID_PREFIX = 'srvtoolu_';
