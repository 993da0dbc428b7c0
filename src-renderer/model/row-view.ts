import type { TimelineRow } from '../../src-shared/contract';
import { kindInfo, type KindCategory } from '../../src-shared/envelope/vocabulary';
import { fallbackLabel, type AgentLabel } from './agents';
import { formatBytes, formatCount, formatGap, formatOffset } from './format';

/** A colour family per envelope type, so the eye finds tool calls and errors in a long list. */
export type TypeCategory = KindCategory;

/**
 * A known kind's category is the envelope vocabulary's (src-shared/envelope/vocabulary.ts);
 * an unknown type (an end-turn hook's, a provider's) is placed by its name.
 */
export function typeCategory(type: string, control?: TimelineRow['control']): TypeCategory {
  const known = kindInfo(type)?.category;
  if (control === 'error-frame' || known === 'error' || type.endsWith('_error')) return 'error';
  if (control) return 'control';
  if (known) return known;
  if (type.startsWith('citation')) return 'text';
  if (type.endsWith('tool_call') || type === 'tool_use' || type === 'server_tool_use') return 'tool';
  if (type.endsWith('_result')) return 'result';
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

/** The Time and Δ cells of a session without receive times: no time can be said. */
export const NO_TIME = '—';

export function rowCells(
  row: TimelineRow,
  context: {
    sessionStart: number;
    previousReceivedAt: number | undefined;
    labels: ReadonlyMap<string, AgentLabel>;
    /** The session carries receive times (`sessionIsTimed`): without, Time and Δ say none. */
    timed?: boolean;
  },
): RowCells {
  const gapMs = context.previousReceivedAt === undefined ? 0 : row.receivedAt - context.previousReceivedAt;
  const timed = context.timed ?? true;
  return {
    seq: String(row.seq),
    time: timed ? formatOffset(row.receivedAt - context.sessionStart) : NO_TIME,
    gap: context.previousReceivedAt === undefined ? '' : timed ? formatGap(gapMs) : NO_TIME,
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
  return cells.previewCut
    ? `${cells.preview}…\n(${formatCount(cells.deltaLength)} characters; select the row to see all)`
    : cells.preview;
}
