import type { DiagnosticLocation } from '../diagnostics/types';

/** What every tracked block remembers of its start event. */
export interface StartedBlock {
  /** The frame of its start event. */
  frame: number;
  /** Where its start event is, for findings raised after that event. */
  at: DiagnosticLocation;
}

export type BlockState = 'open' | 'stopped' | 'unknown';

/**
 * Blocks of a wire that streams them as start, delta… and stop events addressed by a key
 * (Anthropic's `index`, the Responses API's output and content indexes). The dialect owns
 * the diagnostics; the tracker tells it what state a key is in and reports every block
 * still open when the message (or the stream) ends.
 */
export interface BlockTracker<K, B extends StartedBlock> {
  /** Opens a block; returns the block that was still open under the same key (started twice), if any. */
  start(key: K, block: B): B | undefined;
  /** The open block under this key. */
  get(key: K): B | undefined;
  /** Whether the key is open, was stopped in this message, or was never started in it. */
  state(key: K): BlockState;
  /** Whether any block is open. */
  anyOpen(): boolean;
  /** Closes the block under this key and returns it (undefined when none is open). */
  stop(key: K): B | undefined;
  /** Each block still open, in the order they started (to keep what they got before the message ends). */
  forEachOpen(visit: (key: K, block: B) => void): void;
  /**
   * The message is over (a new one starts, or the stream ends): every block still open is
   * reported as not stopped, with `why` saying when that became clear; then the tracker
   * forgets this message's keys.
   */
  endMessage(why: string): void;
  /** The message ended in a way that already explains its open blocks (an error, a failed response): forget them without a report. */
  discardMessage(): void;
}

/** What a stopped key maps to: one table answers both "open?" and "stopped?", one hash lookup per start or stop. */
const STOPPED = Symbol('stopped');

export function createBlockTracker<K, B extends StartedBlock>(
  onNotStopped: (key: K, block: B, why: string) => void,
): BlockTracker<K, B> {
  const blocks = new Map<K, B | typeof STOPPED>();
  let openCount = 0;
  const openBlock = (key: K): B | undefined => {
    const block = blocks.get(key);
    return block === STOPPED ? undefined : block;
  };
  return {
    start(key, block) {
      const previous = openBlock(key);
      blocks.set(key, block);
      if (previous === undefined) openCount++;
      return previous;
    },
    get: openBlock,
    anyOpen: () => openCount > 0,
    state(key) {
      const block = blocks.get(key);
      return block === undefined ? 'unknown' : block === STOPPED ? 'stopped' : 'open';
    },
    stop(key) {
      const block = openBlock(key);
      if (block === undefined) return undefined;
      blocks.set(key, STOPPED);
      openCount--;
      return block;
    },
    forEachOpen(visit) {
      for (const [key, block] of blocks) if (block !== STOPPED) visit(key, block);
    },
    endMessage(why) {
      for (const [key, block] of blocks) if (block !== STOPPED) onNotStopped(key, block, why);
      blocks.clear();
      openCount = 0;
    },
    discardMessage() {
      blocks.clear();
      openCount = 0;
    },
  };
}
