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
  /**
   * The message is over (a new one starts, or the stream ends): every block still open is
   * reported as not stopped, with `why` saying when that became clear; then the tracker
   * forgets this message's keys.
   */
  endMessage(why: string): void;
  /** The message ended in a way that already explains its open blocks (an error, a failed response): forget them without a report. */
  discardMessage(): void;
}

export function createBlockTracker<K, B extends StartedBlock>(
  onNotStopped: (key: K, block: B, why: string) => void,
): BlockTracker<K, B> {
  const open = new Map<K, B>();
  const stopped = new Set<K>();
  return {
    start(key, block) {
      const previous = open.get(key);
      open.set(key, block);
      stopped.delete(key);
      return previous;
    },
    get: (key) => open.get(key),
    anyOpen: () => open.size > 0,
    state: (key) => (open.has(key) ? 'open' : stopped.has(key) ? 'stopped' : 'unknown'),
    stop(key) {
      const block = open.get(key);
      if (!block) return undefined;
      open.delete(key);
      stopped.add(key);
      return block;
    },
    endMessage(why) {
      for (const [key, block] of open) onNotStopped(key, block, why);
      open.clear();
      stopped.clear();
    },
    discardMessage() {
      open.clear();
      stopped.clear();
    },
  };
}
