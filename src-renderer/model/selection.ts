import type { ByteRange, SelectionSnapshot } from './types';
import { createStore, type Store } from './store';

export const EMPTY_SELECTION: SelectionSnapshot = {
  sessionId: null,
  row: null,
  envelopes: [],
  block: null,
  bytes: null,
  revealRevision: 0,
};

/** What is selected in the active session: a focused row, a highlighted set, a byte range. */
export class SelectionModel {
  readonly store: Store<SelectionSnapshot> = createStore(EMPTY_SELECTION);

  /** Switching sessions clears the selection (seqs mean nothing in another session). */
  setSession(sessionId: string | null): void {
    const current = this.store.getSnapshot();
    if (current.sessionId === sessionId) return;
    this.store.set({ ...EMPTY_SELECTION, sessionId, revealRevision: current.revealRevision });
  }

  /** Focus one row; keeps the highlighted set when the row is part of it. */
  selectRow(seq: number, reveal: boolean): void {
    this.store.update((current) => {
      const inSet = current.envelopes.includes(seq);
      return {
        ...current,
        row: seq,
        envelopes: inSet ? current.envelopes : [],
        block: inSet ? current.block : null,
        bytes: current.row === seq ? current.bytes : null,
        revealRevision: reveal ? current.revealRevision + 1 : current.revealRevision,
      };
    });
  }

  selectEnvelopes(seqs: readonly number[], block: number | null, reveal: boolean): void {
    const sorted = [...new Set(seqs)].sort((a, b) => a - b);
    this.store.update((current) => ({
      ...current,
      row: sorted[0] ?? null,
      envelopes: sorted,
      block,
      bytes: null,
      revealRevision: reveal ? current.revealRevision + 1 : current.revealRevision,
    }));
  }

  highlightBytes(range: ByteRange): void {
    this.store.update((current) => ({ ...current, bytes: range }));
  }

  clear(): void {
    this.store.update((current) => ({
      ...EMPTY_SELECTION,
      sessionId: current.sessionId,
      revealRevision: current.revealRevision,
    }));
  }
}
