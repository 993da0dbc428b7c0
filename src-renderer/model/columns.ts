/**
 * The timeline table's columns as data: which exist, which the user chose (the column
 * chooser), their remembered widths, and which fit. Delta (the content) takes the width left
 * over and is never dropped; when the table is too narrow for the chosen columns, they are
 * dropped in `dropOrder` (the least needed first) until Delta has its minimum — the defaults
 * per width. The user's choice is kept: widen the window and the dropped columns return.
 */

export type ColumnId =
  'seq' | 'time' | 'gap' | 'agent' | 'type' | 'final' | 'delta' | 'bytes' | 'idName' | 'diagnostics';

export interface ColumnSpec {
  readonly id: ColumnId;
  /** The header text, and the column's name in the chooser and for assistive technology. */
  readonly label: string;
  readonly title: string;
  readonly width: number;
  readonly minWidth: number;
  /** Dropped for lack of room in this order (1 first); null: never (the row number and the content). */
  readonly dropOrder: number | null;
}

export const TIMELINE_COLUMNS: readonly ColumnSpec[] = [
  { id: 'seq', label: '#', title: 'Envelope number', width: 56, minWidth: 40, dropOrder: null },
  { id: 'time', label: 'Time', title: 'Seconds since the session started', width: 78, minWidth: 56, dropOrder: 4 },
  { id: 'gap', label: 'Δ', title: 'Time since the previous envelope', width: 68, minWidth: 48, dropOrder: 1 },
  { id: 'agent', label: 'Agent', title: 'The agent that sent it', width: 112, minWidth: 64, dropOrder: 6 },
  { id: 'type', label: 'Type', title: 'Envelope type', width: 150, minWidth: 80, dropOrder: 8 },
  { id: 'final', label: 'Fin', title: 'final: the last envelope of its block', width: 40, minWidth: 32, dropOrder: 2 },
  { id: 'delta', label: 'Delta', title: 'The content it carries', width: 380, minWidth: 160, dropOrder: null },
  { id: 'bytes', label: 'Bytes', title: 'Size of its SSE frame data', width: 64, minWidth: 48, dropOrder: 3 },
  { id: 'idName', label: 'Id / name', title: 'Tool or block id and name', width: 150, minWidth: 64, dropOrder: 5 },
  { id: 'diagnostics', label: 'Diag', title: 'Diagnostic findings on it', width: 56, minWidth: 44, dropOrder: 7 },
];

const BY_ID = new Map(TIMELINE_COLUMNS.map((c) => [c.id, c]));

export function columnSpec(id: ColumnId): ColumnSpec {
  return BY_ID.get(id)!;
}

/** What the user chose, remembered between runs. */
export interface ColumnPrefs {
  readonly hidden: readonly ColumnId[];
  readonly widths: Readonly<Partial<Record<ColumnId, number>>>;
}

export const DEFAULT_COLUMN_PREFS: ColumnPrefs = { hidden: [], widths: {} };

export interface ColumnLayout {
  /** The columns shown, in order, with their widths (Delta's fills the rest). */
  readonly columns: readonly { readonly id: ColumnId; readonly width: number }[];
  /** Columns the user chose that do not fit at this width. */
  readonly dropped: readonly ColumnId[];
}

export function columnWidth(id: ColumnId, prefs: ColumnPrefs): number {
  const spec = columnSpec(id);
  const chosen = prefs.widths[id];
  return Math.max(
    spec.minWidth,
    typeof chosen === 'number' && Number.isFinite(chosen) ? Math.round(chosen) : spec.width,
  );
}

export function isShown(id: ColumnId, prefs: ColumnPrefs): boolean {
  return columnSpec(id).dropOrder === null || !prefs.hidden.includes(id);
}

/** The columns for a table `available` pixels wide. */
export function layoutColumns(available: number, prefs: ColumnPrefs): ColumnLayout {
  const chosen = TIMELINE_COLUMNS.filter((c) => isShown(c.id, prefs));
  const kept = new Set(chosen.map((c) => c.id));
  const fixed = (): number =>
    chosen.filter((c) => kept.has(c.id) && c.id !== 'delta').reduce((sum, c) => sum + columnWidth(c.id, prefs), 0);
  const delta = columnSpec('delta');
  const droppable = chosen.filter((c) => c.dropOrder !== null).sort((a, b) => a.dropOrder! - b.dropOrder!);
  const dropped: ColumnId[] = [];
  for (const column of droppable) {
    if (fixed() + delta.minWidth <= available) break;
    kept.delete(column.id);
    dropped.push(column.id);
  }
  const left = available - fixed();
  return {
    columns: chosen
      .filter((c) => kept.has(c.id))
      .map((c) => ({
        id: c.id,
        width: c.id === 'delta' ? Math.max(delta.minWidth, Math.floor(left)) : columnWidth(c.id, prefs),
      })),
    dropped,
  };
}

/** Shows or hides a column in the chooser (the row number and Delta always show). */
export function toggleColumn(prefs: ColumnPrefs, id: ColumnId): ColumnPrefs {
  if (columnSpec(id).dropOrder === null) return prefs;
  return { ...prefs, hidden: prefs.hidden.includes(id) ? prefs.hidden.filter((h) => h !== id) : [...prefs.hidden, id] };
}

/** Remembers a column's width (Delta's follows the table's). */
export function resizeColumn(prefs: ColumnPrefs, id: ColumnId, width: number): ColumnPrefs {
  if (id === 'delta' || !Number.isFinite(width)) return prefs;
  return { ...prefs, widths: { ...prefs.widths, [id]: Math.max(columnSpec(id).minWidth, Math.round(width)) } };
}

/** Stored preferences, checked: unknown ids and odd widths from an older version are dropped. */
export function readColumnPrefs(value: unknown): ColumnPrefs {
  if (typeof value !== 'object' || value === null) return DEFAULT_COLUMN_PREFS;
  const record = value as { hidden?: unknown; widths?: unknown };
  const hidden = Array.isArray(record.hidden)
    ? record.hidden.filter((id): id is ColumnId => typeof id === 'string' && BY_ID.has(id as ColumnId))
    : [];
  const widths: Partial<Record<ColumnId, number>> = {};
  if (typeof record.widths === 'object' && record.widths !== null) {
    for (const [id, width] of Object.entries(record.widths as Record<string, unknown>)) {
      if (BY_ID.has(id as ColumnId) && typeof width === 'number' && Number.isFinite(width) && width > 0 && width < 5000)
        widths[id as ColumnId] = width;
    }
  }
  return { hidden, widths };
}
