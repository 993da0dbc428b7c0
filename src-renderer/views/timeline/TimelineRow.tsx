import { type Column, type ColumnSizingState } from '@tanstack/react-table';
import { memo, type CSSProperties, type ReactNode } from 'react';
import type { RendererApp } from '../../model/types';
import { withDetailOpen } from '../../model/preferences';
import type { SelectionSnapshot } from '../../model/types';
import { type ColumnId } from '../../model/columns';
import { NO_TIME, previewTitle } from '../../model/row-view';
import { type WindowRow as DisplayRow } from '../../model/window-rows';
import { TEST_IDS } from '../../testids';

export const ROW_HEIGHT = 22;
/** A cell's horizontal padding (styles/timeline.css, .tt-cell). */
const CELL_PADDING = 6;

const SEVERITY_SYMBOL = { error: '●', warning: '▲', info: 'ℹ' } as const;

/**
 * A cell's content and what its element carries besides. Each cell is one element, its text
 * a plain text node: while a fast stream is followed every row on view changes at every
 * frame, and each element more per cell is more for React to diff and for the browser to
 * style, lay out and paint.
 */
interface Cell {
  readonly content?: ReactNode;
  readonly className?: string;
  readonly title?: string;
  readonly style?: CSSProperties;
}

const EMPTY_CELL: Cell = {};

const NO_TIME_TITLE =
  'No receive time: every envelope of this session carries the same one (a file without receive times, or one network read)';

function timeCell(content: string | undefined, className: string): Cell {
  return content === NO_TIME ? { content, className, title: NO_TIME_TITLE } : { content, className };
}

/** What each column shows; its header, widths and when it gives way are in model/columns.ts. */
const CELLS: Record<ColumnId, (row: DisplayRow) => Cell> = {
  seq: (row) => ({ content: row.seq, className: 'num' }),
  time: (row) => timeCell(row.cells?.time, 'num'),
  gap: (row) => timeCell(row.cells?.gap, 'num dim'),
  agent: (row) => {
    const agent = row.cells?.agent;
    if (!agent) return EMPTY_CELL;
    return {
      // The agent's dot is the cell's ::before, in the agent's colour.
      className: 'agent-cell',
      style: { paddingLeft: CELL_PADDING + agent.indent * 10, '--agent-colour': agent.colour } as CSSProperties,
      title: `${agent.name} · ${agent.uuid}${agent.model ? ` · ${agent.model}` : ''}`,
      content:
        agent.depth > 0 ? (
          <>
            <span className="agent-branch">└</span>
            {agent.name}
          </>
        ) : (
          agent.name
        ),
    };
  },
  type: (row) => {
    const cells = row.cells;
    if (!cells) return EMPTY_CELL;
    return {
      title: cells.unified ? `${cells.type} → stream.${cells.unified}` : cells.type,
      // A span of its own: the type's font on the cell itself would move its baseline.
      content: (
        <span className={`type type-${cells.category}`}>
          {cells.type}
          {cells.unified && (
            <span className="type-unified" data-testid={TEST_IDS.rowUnified}>
              {' '}
              {cells.unified}
            </span>
          )}
        </span>
      ),
    };
  },
  final: (row) => (row.cells?.final ? { content: '✓', className: 'final-mark', title: 'final' } : EMPTY_CELL),
  delta: (row) => {
    const cells = row.cells;
    if (!cells) return { content: 'loading…', className: 'dim' };
    return {
      className: 'preview',
      title: previewTitle(cells),
      content: cells.previewCut ? (
        <>
          {cells.preview}
          <span className="dim">…</span>
        </>
      ) : (
        cells.preview
      ),
    };
  },
  bytes: (row) => ({ content: row.cells?.bytes, className: 'num dim' }),
  // Ids run long (call_…, toolu_…): the cell cuts them, the tooltip has them whole.
  idName: (row) => ({ content: row.cells?.idName, title: row.cells?.idName }),
  diagnostics: (row) => {
    const cells = row.cells;
    if (!cells || cells.diagnostics === 0) return EMPTY_CELL;
    const severity = cells.severity ?? 'info';
    return {
      className: `diag-badge diag-${severity}`,
      title: `${cells.diagnostics} finding${cells.diagnostics === 1 ? '' : 's'} (${severity})`,
      content: `${SEVERITY_SYMBOL[severity]} ${cells.diagnostics}`,
    };
  },
};

interface TimelineRowViewProps {
  readonly app: RendererApp;
  /** The grid's element id, which row ids start with (aria-activedescendant names the selected row). */
  readonly gridId: string;
  readonly row: DisplayRow;
  readonly columns: readonly Column<DisplayRow>[];
  /** Offset from the rows' origin. */
  readonly top: number;
  readonly width: number;
  /** Only to re-render when a column is resized: cells read their widths from the columns. */
  readonly sizing: ColumnSizingState;
  readonly selected: boolean;
  readonly highlighted: boolean;
}

/**
 * One table row. Memoised: a render that leaves the window and the rows as they were (the
 * scroll event after following, a selection elsewhere) touches only rows whose props changed.
 */
export const TimelineRowView = memo(function TimelineRowView({
  app,
  gridId,
  row,
  columns,
  top,
  width,
  selected,
  highlighted,
}: TimelineRowViewProps) {
  const { seq, position, cells, legStart } = row;
  return (
    <div
      id={rowId(gridId, seq)}
      role="row"
      aria-rowindex={position + 2}
      aria-selected={selected}
      className={`tt-row ${position % 2 === 1 ? 'tt-stripe' : ''} ${selected ? 'tt-selected' : ''} ${highlighted ? 'tt-highlighted' : ''} ${cells?.severity ? `tt-sev-${cells.severity}` : ''} ${legStart ? 'tt-leg-start' : ''}`}
      data-leg-start={legStart ? 'true' : undefined}
      title={
        legStart
          ? 'A new leg starts here: the run continued after its pause (tool results, approvals or a paused turn sent back)'
          : undefined
      }
      data-testid={`${TEST_IDS.timelineRow}-${seq}`}
      data-seq={seq}
      style={{ height: ROW_HEIGHT, width, top }}
      onClick={() => {
        app.selectRow(seq, { reveal: false });
        app.prefs.update(withDetailOpen);
      }}
    >
      {columns.map((column) => {
        const id = column.id as ColumnId;
        const cell = CELLS[id](row);
        return (
          <div
            key={id}
            role="gridcell"
            className={cell.className ? `tt-cell tt-col-${id} ${cell.className}` : `tt-cell tt-col-${id}`}
            title={cell.title}
            style={{ width: column.getSize(), ...cell.style }}
          >
            {cell.content}
          </div>
        );
      })}
    </div>
  );
});

export function rowId(gridId: string, seq: number): string {
  return `${gridId}-row-${seq}`;
}

export function isHighlighted(selection: SelectionSnapshot, seq: number): boolean {
  const list = selection.envelopes;
  if (list.length === 0) return false;
  // Sorted: binary search.
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const value = list[mid]!;
    if (value === seq) return true;
    if (value < seq) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}
