import { isToolCallKind } from '../envelope/kinds';
import type { Block } from './types';

/**
 * What the reconstructor keeps of a session (docs/reliability.md, "Memory that does not grow
 * with the stream"):
 * - `all`: every block and agent, for a session the app shows or a file `inspect` reports;
 * - `open`: only what can still change or still be reported at the end: open blocks and tool
 *   calls waiting for their result, the most recently active agents, and the ids of the calls
 *   linked last. Closed blocks are counted, not kept: what `record` needs to decode an endless
 *   stream in flat memory (the bytes are in the recording; `inspect` of it rebuilds the rest).
 */
export type Retention = 'all' | 'open';

/** Idle agents (no open block) kept in `open` retention; the least recently active goes first. */
export const HELD_IDLE_AGENTS = 1024;

/** Tool-use ids of linked calls remembered in `open` retention, so a repeated result still links. */
export const HELD_LINKED_CALLS = 1024;

/** A closed block that is no longer needed: not a tool call still waiting for its result. */
export function isSettled(block: Block): boolean {
  return block.status !== 'open' && !(isToolCallKind(block.kind) && block.linkedBlock === undefined);
}

export interface BlockHold {
  /** Blocks made so far: the next block's id. */
  readonly made: number;
  add(block: Block): void;
  /** The block changed: in `open` retention, a settled block is let go (true). */
  settle(block: Block): boolean;
  /** The blocks held, in id order (all of them in `all` retention: the reconstructor's own array). */
  list(): readonly Block[];
}

export function createBlockHold(retention: Retention): BlockHold {
  if (retention === 'all') {
    const blocks: Block[] = [];
    return {
      get made() {
        return blocks.length;
      },
      add: (block) => void blocks.push(block),
      settle: () => false,
      list: () => blocks,
    };
  }
  // Insertion order is id order: a block is added once, when it is made.
  const held = new Map<number, Block>();
  let made = 0;
  return {
    get made() {
      return made;
    },
    add(block) {
      made++;
      held.set(block.id, block);
    },
    settle(block) {
      if (!isSettled(block)) return false;
      return held.delete(block.id);
    },
    list: () => [...held.values()],
  };
}

/**
 * A map that keeps at most `limit` entries: setting one more drops the oldest. For what `open`
 * retention remembers only for a while (the ids of linked calls).
 */
export class RecentMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.limit) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }
}
