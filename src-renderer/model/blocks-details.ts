import type { BlockDetail, BlockSummary } from '../../src-shared/contract';
import { detailKey } from './blocks';

/**
 * Block contents for the blocks view, fetched on demand (summaries arrive with the batches,
 * contents only when a block is on screen). One fetch per block at a time; a block that keeps
 * growing while live is re-fetched at most every `minIntervalMs`, and once more after it
 * stops changing, so the view ends on the final content without a request per batch.
 */

export interface DetailEntry {
  /** The last content received (possibly older than the summary while a fetch runs). */
  readonly detail: BlockDetail | null;
  /** detailKey of the summary `detail` was fetched for. */
  readonly key: string | null;
  readonly error: string | null;
  readonly loading: boolean;
}

export interface BlockDetailsDeps {
  fetch(blockId: number): Promise<BlockDetail>;
  now(): number;
  /** Runs `callback` after `ms` (setTimeout in the app, a fake clock in tests). */
  schedule(callback: () => void, ms: number): void;
  minIntervalMs?: number;
}

/** Plain functions (no `this`), so they can be handed to useSyncExternalStore as they are. */
export interface BlockDetails {
  readonly entry: (blockId: number) => DetailEntry | undefined;
  /** Asks for the content matching `summary`; no-op when it is cached or already coming. */
  readonly want: (
    summary: Pick<BlockSummary, 'id' | 'length' | 'status' | 'envelopeCount' | 'citations' | 'images' | 'linkedBlock'>,
  ) => void;
  readonly subscribe: (listener: () => void) => () => void;
  /** Stops notifying and drops everything (the session was closed or switched). */
  readonly dispose: () => void;
}

interface Slot {
  entry: DetailEntry;
  inFlight: boolean;
  timerSet: boolean;
  lastStart: number;
  /** The newest key asked for. */
  wanted: string;
}

const DEFAULT_MIN_INTERVAL_MS = 120;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createBlockDetails(deps: BlockDetailsDeps): BlockDetails {
  const minInterval = deps.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
  const slots = new Map<number, Slot>();
  const listeners = new Set<() => void>();
  let disposed = false;

  const notify = (): void => {
    if (disposed) return;
    for (const listener of [...listeners]) listener();
  };

  const update = (slot: Slot, patch: Partial<DetailEntry>): void => {
    slot.entry = { ...slot.entry, ...patch };
  };

  function start(blockId: number, slot: Slot): void {
    if (disposed || slot.inFlight) return;
    const wait = slot.lastStart + minInterval - deps.now();
    if (slot.entry.detail !== null && wait > 0) {
      if (!slot.timerSet) {
        slot.timerSet = true;
        deps.schedule(() => {
          slot.timerSet = false;
          if (slot.wanted !== slot.entry.key) start(blockId, slot);
        }, wait);
      }
      return;
    }
    const key = slot.wanted;
    slot.inFlight = true;
    slot.lastStart = deps.now();
    const loading = !slot.entry.loading;
    update(slot, { loading: true });
    if (loading) notify();
    deps.fetch(blockId).then(
      (detail) => {
        slot.inFlight = false;
        update(slot, { detail, key, error: null, loading: false });
        if (slot.wanted !== key) start(blockId, slot);
        notify();
      },
      (error: unknown) => {
        slot.inFlight = false;
        // A failed fetch is not retried on its own: the next change of the block asks again.
        update(slot, { key, error: message(error), loading: false });
        notify();
      },
    );
  }

  return {
    entry: (blockId) => slots.get(blockId)?.entry,
    want(summary) {
      if (disposed) return;
      const key = detailKey(summary);
      let slot = slots.get(summary.id);
      if (!slot) {
        slot = {
          entry: { detail: null, key: null, error: null, loading: false },
          inFlight: false,
          timerSet: false,
          lastStart: -Infinity,
          wanted: key,
        };
        slots.set(summary.id, slot);
      }
      slot.wanted = key;
      if (slot.entry.key === key) return;
      start(summary.id, slot);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      disposed = true;
      listeners.clear();
      slots.clear();
    },
  };
}
