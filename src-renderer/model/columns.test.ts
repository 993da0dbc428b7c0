import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COLUMN_PREFS,
  layoutColumns,
  readColumnPrefs,
  resizeColumn,
  seqDigitsOf,
  typeLabelChars,
  TIMELINE_COLUMNS,
  toggleColumn,
} from './columns';

const ids = (available: number, prefs = DEFAULT_COLUMN_PREFS) =>
  layoutColumns(available, prefs).columns.map((c) => c.id);
const sum = (available: number, prefs = DEFAULT_COLUMN_PREFS) =>
  layoutColumns(available, prefs).columns.reduce((s, c) => s + c.width, 0);

describe('timeline columns', () => {
  it('widens the row number for a session whose numbers have more digits than its default width holds, unless the user set it', () => {
    const seqWidth = (rows: number, prefs = DEFAULT_COLUMN_PREFS) =>
      layoutColumns(1228, prefs, { seqDigits: seqDigitsOf(rows) }).columns.find((c) => c.id === 'seq')!.width;
    expect(seqDigitsOf(0)).toBe(1);
    expect(seqDigitsOf(100_000)).toBe(5);
    expect(seqDigitsOf(2_000_155)).toBe(7);
    expect(seqWidth(10)).toBe(56);
    expect(seqWidth(100_000)).toBe(56);
    // Seven digits of 7.5 px and the cell's padding: "2000154", not "20001…".
    expect(seqWidth(2_000_155)).toBe(69);
    expect(seqWidth(20_000_000)).toBe(76);
    expect(seqWidth(2_000_155, resizeColumn(DEFAULT_COLUMN_PREFS, 'seq', 48))).toBe(48);
    expect(layoutColumns(1228, DEFAULT_COLUMN_PREFS, { seqDigits: 7 }).columns.reduce((s, c) => s + c.width, 0)).toBe(
      1228,
    );
  });

  it("fits the Type column to a provider row's unified event, up to a cap, unless the user set it", () => {
    const typeWidth = (typeChars: number, prefs = DEFAULT_COLUMN_PREFS) =>
      layoutColumns(1440, prefs, { typeChars }).columns.find((c) => c.id === 'type')!.width;
    expect(typeLabelChars('text', undefined)).toBe(4);
    expect(typeLabelChars('thinking', 'content_block_start · thinking')).toBe(39);
    // The upstream's short types keep the column's own width.
    expect(typeWidth(typeLabelChars('tool_result', undefined))).toBe(150);
    // `thinking content_block_start · thinking`: whole, not `thinking content_bl…`.
    expect(typeWidth(39)).toBe(278);
    expect(typeWidth(200)).toBe(300);
    expect(typeWidth(39, resizeColumn(DEFAULT_COLUMN_PREFS, 'type', 120))).toBe(120);
    // Narrow, it shrinks towards its minimum with the other essential columns, as before.
    expect(layoutColumns(700, DEFAULT_COLUMN_PREFS, { typeChars: 39 }).columns.reduce((s, c) => s + c.width, 0)).toBe(
      700,
    );
  });

  it('shows every column where there is room, Delta taking the rest', () => {
    const layout = layoutColumns(1228, DEFAULT_COLUMN_PREFS);
    expect(layout.columns.map((c) => c.id)).toEqual(TIMELINE_COLUMNS.map((c) => c.id));
    expect(layout.dropped).toEqual([]);
    expect(sum(1228)).toBe(1228);
  });

  it('regression: at 1024 px only #, Time, Δ, Agent and Type showed — narrow tables drop the least needed columns, never Delta', () => {
    expect(ids(700)).toEqual(['seq', 'time', 'agent', 'type', 'delta', 'diagnostics']);
    expect(layoutColumns(700, DEFAULT_COLUMN_PREFS).dropped).toEqual(['gap', 'final', 'bytes', 'idName']);
    expect(sum(700)).toBe(700);
    // Regression: with the detail pane open at 1024 px (a table of ~440 px) Agent and Time were
    // dropped: the optional columns go first, then Time, Agent and Type shrink before any goes.
    expect(ids(440)).toEqual(['seq', 'time', 'agent', 'type', 'delta']);
    expect(sum(440)).toBe(440);
    const narrow = layoutColumns(440, DEFAULT_COLUMN_PREFS).columns;
    expect(narrow.find((c) => c.id === 'agent')!.width).toBeLessThan(112);
    expect(narrow.find((c) => c.id === 'agent')!.width).toBeGreaterThanOrEqual(64);
    expect(ids(340)).toEqual(['seq', 'time', 'agent', 'delta']);
    expect(ids(330)).toEqual(['seq', 'agent', 'delta']);
    // However narrow, the row number and the content stay.
    expect(ids(100)).toEqual(['seq', 'delta']);
    for (const width of [100, 440, 700, 1228])
      expect(
        layoutColumns(width, DEFAULT_COLUMN_PREFS).columns.find((c) => c.id === 'delta')!.width,
      ).toBeGreaterThanOrEqual(160);
  });

  it('keeps the user’s choice of columns and their widths', () => {
    let prefs = toggleColumn(DEFAULT_COLUMN_PREFS, 'gap');
    prefs = toggleColumn(prefs, 'delta');
    expect(ids(2000, prefs)).not.toContain('gap');
    expect(ids(2000, prefs)).toContain('delta');
    prefs = resizeColumn(prefs, 'type', 220);
    prefs = resizeColumn(prefs, 'agent', 3);
    const layout = layoutColumns(2000, prefs);
    expect(layout.columns.find((c) => c.id === 'type')!.width).toBe(220);
    expect(layout.columns.find((c) => c.id === 'agent')!.width).toBe(64);
    expect(toggleColumn(prefs, 'gap').hidden).toEqual([]);
  });

  it('reads stored preferences defensively', () => {
    expect(readColumnPrefs(null)).toEqual(DEFAULT_COLUMN_PREFS);
    expect(
      readColumnPrefs({ hidden: ['gap', 'nope', 3], widths: { type: 200, agent: 'x', nope: 5, time: -1, bytes: 1e9 } }),
    ).toEqual({ hidden: ['gap'], widths: { type: 200 } });
  });
});
