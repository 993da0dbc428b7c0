import { describe, expect, it } from 'vitest';
import type { RowsRequest } from '../../src-shared/contract';
import { row, rows, rowsBatch } from '../testing/fake-service';
import { labelAgents } from './agents';
import { createManualScheduler } from './scheduler';
import { TimelineModel } from './timeline';
import { windowRows, type WindowContext } from './window-rows';

function timeline() {
  const requests: RowsRequest[] = [];
  const service = {
    getRows: (req: RowsRequest) => {
      requests.push(req);
      return new Promise<never>(() => {});
    },
    filterRows: () => new Promise<never>(() => {}),
  };
  return new TimelineModel('s1', { service, scheduler: createManualScheduler(), reportError: () => {} });
}

const context = (sessionStart = 1000): WindowContext => ({
  sessionStart,
  timed: true,
  labels: labelAgents([{ uuid: 'agent-a', parent: null, firstEnvelope: 0 }]),
});

describe('the table window rows', () => {
  it('makes each row of the window from its full row, or a row without cells until it is loaded', () => {
    const model = timeline();
    model.applyBatch({ ...rowsBatch(rows(0, 5)), rows: rows(0, 3) });
    const shown = windowRows([], 0, 4, model, context());
    expect(shown.map((r) => [r.position, r.seq, r.cells?.preview ?? null])).toEqual([
      [0, 0, 'delta 0'],
      [1, 1, 'delta 1'],
      [2, 2, 'delta 2'],
      [3, 3, null],
      [4, 4, null],
    ]);
    expect(shown[1]?.cells?.gap).toBe('+10 ms');
  });

  it('hands back the same array when a batch leaves every row of the window as it was', () => {
    const model = timeline();
    const ctx = context();
    model.applyBatch(rowsBatch(rows(0, 40)));
    const before = windowRows([], 0, 19, model, ctx);
    // Rows arrive below the window: nothing in it changes.
    model.applyBatch(rowsBatch(rows(40, 100)));
    expect(windowRows(before, 0, 19, model, ctx)).toBe(before);
  });

  it('keeps the unchanged rows and makes new ones for rows that changed, moved in or got loaded', () => {
    const model = timeline();
    const ctx = context();
    model.applyBatch({ ...rowsBatch(rows(0, 30)), rows: rows(0, 10) });
    const before = windowRows([], 0, 11, model, ctx);
    // Row 2 changed (a finding), row 10 got its full row, and the window moved down by one.
    model.applyBatch({
      ...rowsBatch([]),
      total: 30,
      changed: [row(2, { diagnostics: 1, severity: 'warning' }), row(10)],
    });
    const after = windowRows(before, 1, 12, model, ctx);
    expect(after).not.toBe(before);
    expect(after[0]).toBe(before[1]);
    expect(after[1]).not.toBe(before[2]);
    expect(after[1]?.cells?.severity).toBe('warning');
    expect(after[2]).toBe(before[3]);
    expect(after[9]?.cells?.preview).toBe('delta 10');
    expect(after[10]?.seq).toBe(11);
  });

  it('makes every row again when what all cells depend on changes (the session start, the agent names)', () => {
    const model = timeline();
    model.applyBatch(rowsBatch(rows(0, 5)));
    const before = windowRows([], 0, 4, model, context(1000));
    const after = windowRows(before, 0, 4, model, context(1010));
    expect(after.every((r, i) => r !== before[i])).toBe(true);
    expect(after[0]?.cells?.time).not.toBe(before[0]?.cells?.time);
  });
});
