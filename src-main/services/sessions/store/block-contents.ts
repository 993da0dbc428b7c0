import { ERROR_FRAME_KIND } from '../../../../src-shared/envelope/kinds';
import { moveContent, type ContentSource } from '../../../../src-shared/reconstruct/block-content';
import type { Segment } from '../../../../src-shared/inline/types';
import type { Block } from '../../../../src-shared/reconstruct/types';
import { UintColumn } from './columns';
import type { EnvelopeTable } from './envelope-table';

/**
 * The contents of a session's finished blocks, kept on disk: a block's content is the
 * concatenation of the deltas of its envelopes of its own type (citations and images attach
 * without adding text), and the deltas are in the session's spool file. Once a block can no
 * longer grow, its content string is dropped and `block.content` rebuilds it from the deltas
 * when read; the most recently read contents stay in a small cache, so a view that reads one
 * block several times reads the disk once.
 */

/** Characters of rebuilt contents kept for the next read. */
const CACHE_CHARS = 4 * 1024 * 1024;

/** Blocks whose content is not their deltas' text: an error frame's message, an orphan citation's cited text. */
const KEPT_KINDS: ReadonlySet<string> = new Set([ERROR_FRAME_KIND, 'citation', 'tool_result_image']);

/** A segment that is its block's whole text reads the block's content. */
class SegmentOfBlock implements ContentSource<Segment> {
  constructor(private readonly block: Block) {}

  read(): string {
    return this.block.content;
  }

  forget(): void {}
}

export class BlockContents implements ContentSource {
  /** By block id: content length (UTF-16 units) + 1 of a block whose content is on disk, else 0. */
  private readonly lengths = new UintColumn();
  private readonly cache = new Map<number, string>();
  private cachedChars = 0;

  constructor(private readonly envelopes: EnvelopeTable) {}

  /** The block's content was released: it is read from disk. */
  onDisk(block: Block): boolean {
    return this.lengths.get(block.id) > 0;
  }

  /** The block's content length, without reading a content that is on disk. */
  length(block: Block): number {
    const stored = this.lengths.get(block.id);
    return stored > 0 ? stored - 1 : block.content.length;
  }

  /**
   * Drops the content string of a block that can no longer grow (complete or abandoned), if
   * its deltas rebuild it exactly; `block.content` reads it back from disk from then on.
   * True when the content is on disk now (released by this call or before).
   */
  release(block: Block): boolean {
    if (this.onDisk(block)) return true;
    if (block.status === 'open' || KEPT_KINDS.has(block.kind)) return false;
    const content = block.content;
    if (content.length === 0) return false;
    let bytes = 0;
    for (const seq of block.envelopes)
      if (this.envelopes.type(seq) === block.kind) bytes += this.envelopes.deltaBytes(seq);
    if (bytes !== Buffer.byteLength(content, 'utf8')) return false;
    if (!moveContent(block, this)) return false;
    this.lengths.set(block.id, content.length + 1);
    // A plain text block's one segment holds the block's own string: it moves along.
    const only = block.segments?.length === 1 ? block.segments[0] : undefined;
    if (only?.content === content) moveContent(only, new SegmentOfBlock(block));
    return true;
  }

  /** Anything assigning a content again holds it in memory, as before. */
  forget(block: Block): void {
    this.lengths.set(block.id, 0);
    this.uncache(block.id);
  }

  read(block: Block): string {
    const cached = this.cache.get(block.id);
    if (cached !== undefined) {
      // Most recently used last.
      this.cache.delete(block.id);
      this.cache.set(block.id, cached);
      return cached;
    }
    const parts: string[] = [];
    for (const seq of block.envelopes)
      if (this.envelopes.type(seq) === block.kind) parts.push(this.envelopes.delta(seq));
    const content = parts.join('');
    this.remember(block.id, content);
    return content;
  }

  /** At least the first `chars` characters of the content (all of it when shorter), read without caching. */
  head(block: Block, chars: number): string {
    if (!this.onDisk(block)) return block.content;
    const cached = this.cache.get(block.id);
    if (cached !== undefined) return cached;
    const parts: string[] = [];
    let length = 0;
    for (const seq of block.envelopes) {
      if (length >= chars) break;
      if (this.envelopes.type(seq) !== block.kind) continue;
      const delta = this.envelopes.delta(seq);
      parts.push(delta);
      length += delta.length;
    }
    return parts.join('');
  }

  private uncache(id: number): void {
    const cached = this.cache.get(id);
    if (cached === undefined) return;
    this.cache.delete(id);
    this.cachedChars -= cached.length;
  }

  private remember(id: number, content: string): void {
    if (content.length > CACHE_CHARS) return;
    this.cache.set(id, content);
    this.cachedChars += content.length;
    for (const [oldest, text] of this.cache) {
      if (this.cachedChars <= CACHE_CHARS) break;
      this.cache.delete(oldest);
      this.cachedChars -= text.length;
    }
  }
}
