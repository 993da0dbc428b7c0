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
  /**
   * By id, for blocks not yet released: the UTF-16 length of their own type's deltas, counted
   * as the block took them (`count`), or -1 once one was not known.
   */
  private readonly deltaChars = new Map<number, number>();

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
    if (block.status === 'open') return false;
    const counted = this.deltaChars.get(block.id);
    this.deltaChars.delete(block.id);
    if (KEPT_KINDS.has(block.kind)) return false;
    const content = block.content;
    if (content.length === 0 || !this.rebuilds(block, content, counted)) return false;
    if (!moveContent(block, this)) return false;
    this.lengths.set(block.id, content.length + 1);
    // A plain text block's one segment holds the block's own string: it moves along.
    const only = block.segments?.length === 1 ? block.segments[0] : undefined;
    if (only?.content === content) moveContent(only, new SegmentOfBlock(block));
    return true;
  }

  /** `seq` joined the block (in the order of its envelope list): its delta counts toward `release`'s check. */
  count(block: Block, seq: number): void {
    if (this.envelopes.type(seq) !== block.kind) return;
    const sum = this.deltaChars.get(block.id) ?? 0;
    if (sum < 0) return;
    const chars = this.envelopes.recentDeltaChars(seq);
    this.deltaChars.set(block.id, chars < 0 ? -1 : sum + chars);
  }

  /**
   * Whether the block's deltas of its own type rebuild `content`: as long as it, by the
   * lengths counted as they came (`counted`). Measuring the text instead would make a rope of
   * many deltas flat only to drop it. Where the count is not known (a delta counted long after
   * it came) or differs (a replay split the block's envelopes after they were counted, a text
   * cut at the cap), the UTF-8 lengths are compared, as for every block before.
   */
  private rebuilds(block: Block, content: string, counted: number | undefined): boolean {
    if (counted === content.length) return true;
    let bytes = 0;
    for (const seq of block.envelopes)
      if (this.envelopes.type(seq) === block.kind) bytes += this.envelopes.deltaBytes(seq);
    return bytes === Buffer.byteLength(content, 'utf8');
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
