import { describe, expect, it } from 'vitest';
import { SelectionModel } from './selection';

describe('selection', () => {
  it('keeps a block highlight while stepping through its envelopes, and drops it when leaving', () => {
    const selection = new SelectionModel();
    selection.setSession('s1');
    selection.selectEnvelopes([7, 5, 5, 6], 3, true);
    expect(selection.store.getSnapshot()).toMatchObject({ row: 5, envelopes: [5, 6, 7], block: 3, revealRevision: 1 });
    selection.selectRow(6, false);
    expect(selection.store.getSnapshot()).toMatchObject({ row: 6, envelopes: [5, 6, 7], block: 3, revealRevision: 1 });
    selection.selectRow(9, false);
    expect(selection.store.getSnapshot()).toMatchObject({ row: 9, envelopes: [], block: null });
  });

  it('keeps highlighted bytes only for the row they belong to', () => {
    const selection = new SelectionModel();
    selection.selectRow(4, true);
    selection.highlightBytes({ leg: 0, start: 10, end: 20 });
    selection.selectRow(4, true);
    expect(selection.store.getSnapshot().bytes).toEqual({ leg: 0, start: 10, end: 20 });
    expect(selection.store.getSnapshot().revealRevision).toBe(2);
    selection.selectRow(5, false);
    expect(selection.store.getSnapshot().bytes).toBeNull();
  });

  it('clears when the session changes, but keeps counting reveals', () => {
    const selection = new SelectionModel();
    selection.setSession('a');
    selection.selectRow(1, true);
    selection.setSession('b');
    expect(selection.store.getSnapshot()).toEqual({
      sessionId: 'b',
      row: null,
      envelopes: [],
      block: null,
      bytes: null,
      revealRevision: 1,
    });
  });
});
