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
  /**
   * What a multi-agent debugger needs on every row (who, when, what): shrunk towards its
   * minimum width before it is dropped, and dropped only after every other column.
   */
  readonly essential?: true;
}

export const TIMELINE_COLUMNS: readonly ColumnSpec[] = [
  { id: 'seq', label: '#', title: 'Envelope number', width: 56, minWidth: 40, dropOrder: null },
  {
    id: 'time',
    label: 'Time',
    title: 'Seconds since the session started',
    width: 78,
    minWidth: 56,
    dropOrder: 7,
    essential: true,
  },
  { id: 'gap', label: 'Δ', title: 'Time since the previous envelope', width: 68, minWidth: 48, dropOrder: 1 },
  {
    id: 'agent',
    label: 'Agent',
    title: 'The agent that sent it',
    width: 112,
    minWidth: 64,
    dropOrder: 8,
    essential: true,
  },
  { id: 'type', label: 'Type', title: 'Envelope type', width: 150, minWidth: 80, dropOrder: 6, essential: true },
  { id: 'final', label: 'Fin', title: 'final: the last envelope of its block', width: 40, minWidth: 32, dropOrder: 2 },
  { id: 'delta', label: 'Delta', title: 'The content it carries', width: 380, minWidth: 160, dropOrder: null },
  { id: 'bytes', label: 'Bytes', title: 'Size of its SSE frame data', width: 64, minWidth: 48, dropOrder: 3 },
  { id: 'idName', label: 'Id / name', title: 'Tool or block id and name', width: 150, minWidth: 64, dropOrder: 4 },
  { id: 'diagnostics', label: 'Diag', title: 'Diagnostic findings on it', width: 56, minWidth: 44, dropOrder: 5 },
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

/** What the session's rows need of the columns that fit their content when the user set no width. */
export interface ContentWidths {
  /** Digits of the largest row number (`seqDigitsOf`). */
  readonly seqDigits?: number;
  /** Characters of the longest type label seen (`typeLabelChars`): a provider row's is long. */
  readonly typeChars?: number;
}

/**
 * A column's width: the user's, or its own, grown to its content. The row number's grows with
 * the digits of the largest one (a session of two million envelopes numbers to seven), so that
 * it is not cut to "20001…"; the type's with its longest label, up to TYPE_MAX_PX, so that a
 * provider row's unified event (`content_block_start · thinking`, `content_block_stop · text`)
 * is not cut to the `content_bl…` every block event starts with.
 */
export function columnWidth(id: ColumnId, prefs: ColumnPrefs, content: ContentWidths = {}): number {
  const spec = columnSpec(id);
  const chosen = prefs.widths[id];
  if (typeof chosen === 'number' && Number.isFinite(chosen)) return Math.max(spec.minWidth, Math.round(chosen));
  if (id === 'seq') return Math.max(spec.width, SEQ_PADDING_PX + Math.ceil((content.seqDigits ?? 0) * DIGIT_PX));
  if (id === 'type')
    return Math.min(
      TYPE_MAX_PX,
      Math.max(spec.width, TYPE_PADDING_PX + Math.ceil((content.typeChars ?? 0) * LABEL_PX)),
    );
  return spec.width;
}

/** A digit of the row number's monospace font, and the cell's padding and room for its resize handle. */
const DIGIT_PX = 7.5;
const SEQ_PADDING_PX = 16;
/** A character of a type label (the type's font and the unified name's smaller monospace), and the cell's padding. */
const LABEL_PX = 6.6;
const TYPE_PADDING_PX = 20;
/** The widest the Type column grows by itself: a longer label is cut (and whole in its tooltip). */
const TYPE_MAX_PX = 300;

/** Characters of a row's type label: its type, and its unified event's name beside it. */
export const typeLabelChars = (type: string, unified: string | undefined): number =>
  type.length + (unified === undefined ? 0 : 1 + unified.length);

/** The digits of the largest row number among `rows` rows (numbered from 0). */
export const seqDigitsOf = (rows: number): number => String(Math.max(0, rows - 1)).length;

export function isShown(id: ColumnId, prefs: ColumnPrefs): boolean {
  return columnSpec(id).dropOrder === null || !prefs.hidden.includes(id);
}

/**
 * The columns for a table `available` pixels wide. Where the chosen columns do not fit at
 * their widths, the optional ones go first (in `dropOrder`); then the essential ones (Time,
 * Agent, Type) shrink towards their minimum widths; only where even that does not fit are
 * they dropped too. The row number and Delta always stay; Delta takes what is left.
 */
export function layoutColumns(available: number, prefs: ColumnPrefs, content: ContentWidths = {}): ColumnLayout {
  const chosen = TIMELINE_COLUMNS.filter((c) => isShown(c.id, prefs));
  const kept = new Set(chosen.map((c) => c.id));
  const delta = columnSpec('delta');
  const others = (): ColumnSpec[] => chosen.filter((c) => kept.has(c.id) && c.id !== 'delta');
  const total = (width: (c: ColumnSpec) => number): number => others().reduce((sum, c) => sum + width(c), 0);
  const preferred = (c: ColumnSpec): number => columnWidth(c.id, prefs, content);
  const fits = (width: (c: ColumnSpec) => number): boolean => total(width) + delta.minWidth <= available;
  const droppable = chosen.filter((c) => c.dropOrder !== null).sort((a, b) => a.dropOrder! - b.dropOrder!);
  const dropped: ColumnId[] = [];
  for (const column of droppable) {
    const enough = column.essential ? fits((c) => (c.essential ? c.minWidth : preferred(c))) : fits(preferred);
    if (enough) break;
    kept.delete(column.id);
    dropped.push(column.id);
  }
  // What is left for the essential columns between their minimum and their preferred widths.
  const room = available - delta.minWidth - total((c) => (c.essential ? c.minWidth : preferred(c)));
  const stretch = total((c) => (c.essential ? preferred(c) - c.minWidth : 0));
  const share = stretch <= 0 ? 1 : Math.min(1, Math.max(0, room / stretch));
  const width = (c: ColumnSpec): number =>
    c.essential ? c.minWidth + Math.floor(share * (preferred(c) - c.minWidth)) : preferred(c);
  const left = available - total(width);
  return {
    columns: chosen
      .filter((c) => kept.has(c.id))
      .map((c) => ({ id: c.id, width: c.id === 'delta' ? Math.max(delta.minWidth, Math.floor(left)) : width(c) })),
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
