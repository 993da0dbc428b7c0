import { moveEnvelopeList, type EnvelopeListSource } from '../../../../src-shared/reconstruct/envelope-list';
import type { Block } from '../../../../src-shared/reconstruct/types';
import { UintColumn } from './columns';
import type { EnvelopeTable } from './envelope-table';

/**
 * The envelope lists of a session's finished blocks, kept as ranges over the envelope → block
 * column instead of number arrays: a finished block's list is every envelope from its first to
 * its last that the column gives to the block, so the block keeps its first envelope and the
 * distance to its last (two small integers in columns) and `block.envelopes` rebuilds the list
 * when read. The most recently read lists stay in a small cache, since a summary reads the
 * first, the last and the count of one block in a row.
 *
 * A list moves only when the range gives it back exactly (a retried block's replay lists
 * envelopes the column gives to the first attempt: it keeps its array), and only when the
 * range is not much longer than the list, so that rebuilding a list costs about its length
 * (a block open while other agents stream for long keeps its array).
 */

/** A range may span this many times its list's length (three agents interleave in the firehose), plus RANGE_SLACK. */
const RANGE_FACTOR = 16;
const RANGE_SLACK = 256;
/** Rebuilt lists kept for the next read, and envelope numbers in them at most. */
const CACHE_LISTS = 64;
const CACHE_ENTRIES = 64 * 1024;

export class BlockEnvelopes implements EnvelopeListSource {
  /** By block id: the first envelope + 1 of a list kept as a range, else 0. */
  private readonly firsts = new UintColumn();
  /** By block id: last envelope − first envelope of a list kept as a range. */
  private readonly spans = new UintColumn();
  private readonly cache = new Map<number, readonly number[]>();
  private cachedEntries = 0;

  constructor(private readonly envelopes: EnvelopeTable) {}

  /**
   * Replaces the envelope list of a finished block (every envelope of it already in the
   * column) with its range, when the range gives it back exactly. True when the list is a
   * range now (moved by this call or before).
   */
  release(block: Block): boolean {
    if (this.firsts.get(block.id) > 0) return true;
    if (block.status === 'open') return false;
    const list = block.envelopes;
    const first = list[0];
    const last = list.at(-1);
    if (first === undefined || last === undefined) return false;
    const span = last - first;
    if (span > RANGE_FACTOR * list.length + RANGE_SLACK) return false;
    for (const seq of list) if (this.envelopes.block(seq) !== block.id) return false;
    let inRange = 0;
    for (let seq = first; seq <= last; seq++) if (this.envelopes.block(seq) === block.id) inRange++;
    if (inRange !== list.length || !moveEnvelopeList(block, this)) return false;
    this.firsts.set(block.id, first + 1);
    this.spans.set(block.id, span);
    return true;
  }

  read(block: Block): readonly number[] {
    const cached = this.cache.get(block.id);
    if (cached !== undefined) {
      // Most recently used last.
      this.cache.delete(block.id);
      this.cache.set(block.id, cached);
      return cached;
    }
    const first = this.firsts.get(block.id) - 1;
    const last = first + this.spans.get(block.id);
    const list: number[] = [];
    for (let seq = first; seq <= last; seq++) if (this.envelopes.block(seq) === block.id) list.push(seq);
    // Frozen: a change to a list must go through the block (pushEnvelope), which takes it back.
    this.remember(block.id, Object.freeze(list));
    return list;
  }

  /** Anything assigning a list again holds it in the block, as before. */
  forget(block: Block): void {
    this.firsts.set(block.id, 0);
    this.spans.set(block.id, 0);
    const cached = this.cache.get(block.id);
    if (cached === undefined) return;
    this.cache.delete(block.id);
    this.cachedEntries -= cached.length;
  }

  private remember(id: number, list: readonly number[]): void {
    if (list.length > CACHE_ENTRIES) return;
    this.cache.set(id, list);
    this.cachedEntries += list.length;
    for (const [oldest, held] of this.cache) {
      if (this.cachedEntries <= CACHE_ENTRIES && this.cache.size <= CACHE_LISTS) break;
      this.cache.delete(oldest);
      this.cachedEntries -= held.length;
    }
  }
}
