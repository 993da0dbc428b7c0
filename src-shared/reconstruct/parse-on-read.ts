import { parseJsonPayload } from '../json/values';
import type { Block } from './types';

/** `block.parsed` of a completed block whose content is valid JSON: parsed again on each read. */
function parsedContent(this: Block): unknown {
  const parsed = parseJsonPayload(this.content);
  return parsed.ok ? parsed.value : undefined;
}

/** Assigning `block.parsed` stores the value as a plain field, as on any other block. */
function setParsed(this: Block, value: unknown): void {
  Object.defineProperty(this, 'parsed', { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Make `block.parsed` parse the block's (final) content when read instead of holding the
 * value: meta_init and meta_final payloads carry whole message histories, and a session
 * would otherwise keep each of them twice, as text and as objects. Reads are rare (a block's
 * detail view, the diff).
 */
export function parseOnRead(block: Block): void {
  Object.defineProperty(block, 'parsed', { get: parsedContent, set: setParsed, enumerable: true, configurable: true });
}
