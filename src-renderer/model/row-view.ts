import type { TimelineRow } from '../../src-shared/contract';
import { fallbackLabel, type AgentLabel } from './agents';
import { formatBytes, formatCount, formatGap, formatOffset } from './format';

/** A colour family per envelope type, so the eye finds tool calls and errors in a long list. */
export type TypeCategory = 'text' | 'thinking' | 'tool' | 'result' | 'meta' | 'error' | 'control' | 'other';

export function typeCategory(type: string, control?: TimelineRow['control']): TypeCategory {
  if (control === 'error-frame' || type === 'error' || type.endsWith('_error')) return 'error';
  if (control) return 'control';
  if (type === 'text' || type === 'citation' || type.startsWith('citation')) return 'text';
  if (type === 'thinking' || type === 'redacted_thinking') return 'thinking';
  if (type.endsWith('tool_call') || type === 'tool_use' || type === 'server_tool_use' || type === 'awaiting_frontend_tools') return 'tool';
  if (type.endsWith('tool_result') || type.endsWith('_result') || type === 'tool_result_image') return 'result';
  if (type.startsWith('meta')) return 'meta';
  return 'other';
}

/** One table row's cells as text. */
export interface RowCells {
  readonly seq: string;
  /** Time since the session started. */
  readonly time: string;
  /** Gap to the previous envelope of the session. */
  readonly gap: string;
  readonly agent: AgentLabel;
  readonly type: string;
  /** Provider dialects: the unified event beside the wire type. */
  readonly unified: string | undefined;
  readonly category: TypeCategory;
  readonly final: boolean;
  readonly preview: string;
  /** The preview was cut: the delta is longer. */
  readonly previewCut: boolean;
  readonly deltaLength: number;
  readonly bytes: string;
  readonly idName: string;
  readonly diagnostics: number;
  readonly severity: TimelineRow['severity'];
}

export function rowCells(
  row: TimelineRow,
  context: { sessionStart: number; previousReceivedAt: number | undefined; labels: ReadonlyMap<string, AgentLabel> },
): RowCells {
  const gapMs = context.previousReceivedAt === undefined ? 0 : row.receivedAt - context.previousReceivedAt;
  return {
    seq: String(row.seq),
    time: formatOffset(row.receivedAt - context.sessionStart),
    gap: context.previousReceivedAt === undefined ? '' : formatGap(gapMs),
    agent: context.labels.get(row.agent) ?? fallbackLabel(row.agent),
    type: row.control && row.type === '' ? row.control : row.type,
    unified: row.unified,
    category: typeCategory(row.type, row.control),
    final: row.final,
    preview: row.preview,
    previewCut: row.deltaLength > row.preview.length,
    deltaLength: row.deltaLength,
    bytes: formatBytes(row.bytes),
    idName: [row.name, row.toolId].filter((x): x is string => x !== undefined && x !== '').join(' · '),
    diagnostics: row.diagnostics,
    severity: row.severity,
  };
}

/** The tooltip of a delta cell: its length when the preview does not show it all. */
export function previewTitle(cells: RowCells): string {
  return cells.previewCut ? `${cells.preview}…\n(${formatCount(cells.deltaLength)} characters; select the row to see all)` : cells.preview;
}
