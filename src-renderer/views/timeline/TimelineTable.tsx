import { createColumnHelper, flexRender, getCoreRowModel, useReactTable, type ColumnSizingState, type Row } from '@tanstack/react-table';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TimelineRow } from '../../../src-shared/contract';
import type { RendererApp } from '../../app/composition';
import { useStore } from '../../app/hooks';
import { useThrottled } from '../../app/use-throttled';
import type { SelectionSnapshot } from '../../app/types';
import { uiCommands } from '../../app/ui-commands';
import type { AgentLabel } from '../../model/agents';
import { followRange } from '../../model/follow-range';
import { EMPTY_FILTER } from '../../model/row-filter';
import { previewTitle, rowCells, type RowCells } from '../../model/row-view';
import type { TimelineModel, TimelineSnapshot } from '../../model/timeline';
import { TEST_IDS } from '../../testids';

export const ROW_HEIGHT = 22;
/** Above this many rows, count changes reach the virtualizer at most every LARGE_COUNT_INTERVAL_MS. */
const LARGE_COUNT = 100_000;
const LARGE_COUNT_INTERVAL_MS = 150;
const HEADER_HEIGHT = 24;
/** Rows kept above the viewport while following the newest rows (nothing lies below them). */
const FOLLOW_OVERSCAN = 4;

/** One rendered row: its place in the (filtered) list, its seq, and the row once loaded. */
interface DisplayRow {
  readonly position: number;
  readonly seq: number;
  readonly cells: RowCells | null;
}

const column = createColumnHelper<DisplayRow>();

/**
 * The last reveal request a table carried out. Module-wide because the table unmounts when
 * another view is shown, and the request that brings it back must still be carried out once.
 */
let handledReveal = 0;

const SEVERITY_SYMBOL = { error: '●', warning: '▲', info: 'ℹ' } as const;

const COLUMNS = [
  column.accessor('seq', { id: 'seq', header: '#', size: 56, cell: (c) => <span className="num">{c.row.original.seq}</span> }),
  column.display({ id: 'time', header: 'Time', size: 78, cell: (c) => <span className="num">{c.row.original.cells?.time}</span> }),
  column.display({ id: 'gap', header: 'Δ', size: 68, cell: (c) => <span className="num dim">{c.row.original.cells?.gap}</span> }),
  column.display({
    id: 'agent',
    header: 'Agent',
    size: 112,
    cell: (c) => {
      const agent = c.row.original.cells?.agent;
      if (!agent) return null;
      return (
        <span className="agent-cell" style={{ paddingLeft: agent.depth * 10 }} title={`${agent.name} · ${agent.uuid}${agent.model ? ` · ${agent.model}` : ''}`}>
          {agent.depth > 0 && <span className="agent-branch">└</span>}
          <span className="agent-dot" style={{ background: agent.colour }} />
          {agent.name}
        </span>
      );
    },
  }),
  column.display({
    id: 'type',
    header: 'Type',
    size: 164,
    cell: (c) => {
      const cells = c.row.original.cells;
      if (!cells) return null;
      return (
        <span className={`type type-${cells.category}`} title={cells.unified ? `${cells.type} → stream.${cells.unified}` : cells.type}>
          {cells.type}
          {cells.unified && <span className="type-unified" data-testid={TEST_IDS.rowUnified}> {cells.unified}</span>}
        </span>
      );
    },
  }),
  column.display({ id: 'final', header: () => <span title="final: the last envelope of its block">Fin</span>, size: 40, cell: (c) => (c.row.original.cells?.final ? <span className="final-mark" title="final">✓</span> : null) }),
  column.display({
    id: 'delta',
    header: 'Delta',
    size: 380,
    cell: (c) => {
      const cells = c.row.original.cells;
      if (!cells) return <span className="dim">loading…</span>;
      return (
        <span className="preview" title={previewTitle(cells)}>
          {cells.preview}
          {cells.previewCut && <span className="dim">…</span>}
        </span>
      );
    },
  }),
  column.display({ id: 'bytes', header: 'Bytes', size: 64, cell: (c) => <span className="num dim">{c.row.original.cells?.bytes}</span> }),
  column.display({ id: 'idName', header: 'Id / name', size: 170, cell: (c) => <span className="id-name">{c.row.original.cells?.idName}</span> }),
  column.display({
    id: 'diagnostics',
    header: 'Diag',
    size: 52,
    cell: (c) => {
      const cells = c.row.original.cells;
      if (!cells || cells.diagnostics === 0) return null;
      const severity = cells.severity ?? 'info';
      return (
        <span className={`diag-badge diag-${severity}`} title={`${cells.diagnostics} finding${cells.diagnostics === 1 ? '' : 's'} (${severity})`}>
          {SEVERITY_SYMBOL[severity]} {cells.diagnostics}
        </span>
      );
    },
  }),
];

export interface TimelineTableProps {
  readonly app: RendererApp;
  readonly timeline: TimelineModel;
  readonly snapshot: TimelineSnapshot;
  readonly labels: ReadonlyMap<string, AgentLabel>;
  readonly sessionStart: number;
  readonly live: boolean;
}

/**
 * The envelopes as a virtualized table: @tanstack/react-table for the columns over
 * @tanstack/react-virtual for the rows (fixed height, keyed by seq). Only the rows in view
 * are materialised; missing ones are fetched by page. While the session is live the table
 * follows new rows, but only if the user was at the bottom.
 */
export function TimelineTable({ app, timeline, snapshot, labels, sessionStart, live }: TimelineTableProps) {
  const selection = useStore(app.selection);
  const scroller = useRef<HTMLDivElement>(null);
  // Whether the table sticks to the newest rows: from the start for a live session, and
  // whenever the user is at the bottom. It outlasts the session's end, so the rows still
  // draining in batches after the final summary are followed to the last one. State for
  // rendering, a ref for the scroll handler and layout effect, which must see a change
  // before the next render.
  const followingRef = useRef(live);
  const [following, setFollowingState] = useState(live);
  const setFollowing = useCallback((on: boolean) => {
    followingRef.current = on;
    setFollowingState(on);
  }, []);
  const [columnSizing, setColumnSizing] = useState<ColumnSizingState>({});
  // The virtualizer re-measures every row when the count changes: on huge sessions, a few times a second.
  const count = useThrottled(snapshot.visibleCount, snapshot.visibleCount > LARGE_COUNT ? LARGE_COUNT_INTERVAL_MS : 0);

  const virtualizer = useVirtualizer({
    count,
    // While following, the newest rows, in the same frame as the scroll to the bottom.
    rangeExtractor: following ? (range: Range) => followRange(range, FOLLOW_OVERSCAN) : defaultRangeExtractor,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
    scrollMargin: HEADER_HEIGHT,
    // Scroll updates render in the next frame with the rest, never synchronously per event.
    useFlushSync: false,
    // Fixed row height, nothing measured: the default index keys keep the virtualizer's work
    // minimal; React keys the rendered rows by slot.
  });

  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  // Rows of the window: recomputed when the window moves or the timeline changes.
  const data = useMemo<DisplayRow[]>(() => {
    const rows: DisplayRow[] = [];
    for (let position = first; position <= last; position++) {
      const seq = timeline.seqAt(position);
      if (seq === undefined) continue;
      const row: TimelineRow | undefined = timeline.getRow(seq);
      const previousReceivedAt = seq > 0 && timeline.index.isKnown(seq - 1) ? timeline.index.receivedAt(seq - 1) : undefined;
      rows.push({ position, seq, cells: row ? rowCells(row, { sessionStart, previousReceivedAt, labels }) : null });
    }
    return rows;
    // snapshot.version: rows and pages change in place in the model.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [first, last, timeline, snapshot.version, labels, sessionStart]);

  useEffect(() => {
    if (last >= first) timeline.ensurePositions(first, last + 1);
  }, [first, last, timeline, snapshot.version]);

  const table = useReactTable({
    data,
    columns: COLUMNS,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(row.seq),
    columnResizeMode: 'onChange',
    enableColumnResizing: true,
    state: { columnSizing },
    onColumnSizingChange: setColumnSizing,
  });
  const rowModel = table.getRowModel().rows;
  const byPosition = new Map(rowModel.map((r) => [r.original.position, r]));

  // Follow new rows. One scroll write per frame (the browser clamps it to the end); no layout
  // reads, which a fast stream would pay for on every frame.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !followingRef.current || count === 0) return;
    element.scrollTop = HEADER_HEIGHT + count * ROW_HEIGHT;
  }, [count, following]);

  const onScroll = (): void => {
    const element = scroller.current;
    if (!element) return;
    setFollowing(element.scrollTop + element.clientHeight >= element.scrollHeight - ROW_HEIGHT * 1.5);
  };

  const follow = useCallback(() => {
    setFollowing(true);
    const element = scroller.current;
    if (element) element.scrollTop = HEADER_HEIGHT + count * ROW_HEIGHT;
  }, [count, setFollowing]);

  useEffect(() => uiCommands.event((command) => (command === 'follow' ? follow() : undefined)), [follow]);

  // Reveal: another view asked to show a row (a diagnostic, a block): scroll to it, clearing a
  // filter that hides it. A table mounting with no pending reveal just scrolls the selected row
  // into view if it is shown.
  const mounted = useRef(false);
  useEffect(() => {
    const pending = selection.revealRevision !== handledReveal;
    const mounting = !mounted.current;
    mounted.current = true;
    if (!pending && !mounting) return;
    handledReveal = selection.revealRevision;
    if (selection.row === null) return;
    let position = timeline.positionOf(selection.row);
    if (pending && position < 0 && snapshot.filterActive) {
      timeline.setFilter(EMPTY_FILTER);
      app.notify('Filter cleared', `Row ${selection.row} was hidden by the filter.`);
      position = timeline.positionOf(selection.row);
    }
    if (position < 0) return;
    setFollowing(false);
    virtualizer.scrollToIndex(position, { align: 'center' });
    if (pending) scroller.current?.focus({ preventScroll: true });
  }, [selection.revealRevision, selection.row, timeline, snapshot.filterActive, virtualizer, app, setFollowing]);

  const selectedPosition = selection.row === null ? -1 : timeline.positionOf(selection.row);

  const moveTo = (position: number): void => {
    if (count === 0) return;
    const clamped = Math.max(0, Math.min(count - 1, position));
    const seq = timeline.seqAt(clamped);
    if (seq === undefined) return;
    app.selectRow(seq, { reveal: false });
    setFollowing(clamped === count - 1 && live);
    virtualizer.scrollToIndex(clamped, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const from = selectedPosition >= 0 ? selectedPosition : -1;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(from + 1);
        break;
      case 'ArrowUp':
        moveTo(from < 0 ? 0 : from - 1);
        break;
      case 'PageDown':
        moveTo(from + page);
        break;
      case 'PageUp':
        moveTo(from - page);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(count - 1);
        break;
      case 'Enter':
        if (selection.row !== null) app.prefs.update((p) => ({ ...p, detailOpen: true }));
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const headerGroup = table.getHeaderGroups()[0];
  // Explicit widths: rows never size to their content, so layout stays cheap per frame.
  const width = table.getTotalSize();

  return (
    <div className="timeline-table-wrap">
      <div
        ref={scroller}
        className="timeline-table"
        role="grid"
        aria-rowcount={count}
        aria-label="Envelopes"
        tabIndex={0}
        data-testid={TEST_IDS.timelineTable}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
      >
        <div className="tt-header" role="row" style={{ height: HEADER_HEIGHT, width }}>
          {headerGroup?.headers.map((header) => (
            <div key={header.id} role="columnheader" className={`tt-cell tt-col-${header.column.id}`} style={{ width: header.getSize() }}>
              {flexRender(header.column.columnDef.header, header.getContext())}
              <div
                className={`tt-resizer ${header.column.getIsResizing() ? 'tt-resizing' : ''}`}
                onMouseDown={header.getResizeHandler()}
                onDoubleClick={() => header.column.resetSize()}
                role="separator"
                aria-label={`Resize ${String(header.column.columnDef.header)}`}
              />
            </div>
          ))}
        </div>
        <div className="tt-body" style={{ height: virtualizer.getTotalSize(), width }}>
          {items.map((item) => {
            const row = byPosition.get(item.index);
            if (!row) return null;
            const seq = row.original.seq;
            return (
              <TimelineRowView
                // Keyed by slot, not seq: a row leaving the window hands its elements to the
                // row entering it, so scrolling and following update text instead of
                // rebuilding every row's DOM.
                key={item.index % items.length}
                app={app}
                row={row}
                top={item.start - HEADER_HEIGHT}
                width={width}
                sizing={columnSizing}
                selected={seq === selection.row}
                highlighted={isHighlighted(selection, seq)}
              />
            );
          })}
        </div>
      </div>
      {live && !following && count > 0 && (
        <button type="button" className="follow-button" data-testid={TEST_IDS.followButton} onClick={follow} title="Jump to the newest row and follow (F)">
          ↓ Follow new rows
        </button>
      )}
    </div>
  );
}

interface TimelineRowViewProps {
  readonly app: RendererApp;
  readonly row: Row<DisplayRow>;
  readonly top: number;
  readonly width: number;
  /** Only to re-render when a column is resized: cells read their widths from the row. */
  readonly sizing: ColumnSizingState;
  readonly selected: boolean;
  readonly highlighted: boolean;
}

/**
 * One table row. Memoised: a render that leaves the window and the rows as they were (the
 * scroll event after following, a selection elsewhere) touches only rows whose props changed.
 */
const TimelineRowView = memo(function TimelineRowView({ app, row, top, width, selected, highlighted }: TimelineRowViewProps) {
  const { seq, position, cells } = row.original;
  return (
    <div
      role="row"
      aria-rowindex={position + 1}
      aria-selected={selected}
      className={`tt-row ${position % 2 === 1 ? 'tt-stripe' : ''} ${selected ? 'tt-selected' : ''} ${highlighted ? 'tt-highlighted' : ''} ${cells?.severity ? `tt-sev-${cells.severity}` : ''}`}
      data-testid={`${TEST_IDS.timelineRow}-${seq}`}
      data-seq={seq}
      style={{ height: ROW_HEIGHT, width, transform: `translateY(${top}px)` }}
      onClick={() => app.selectRow(seq, { reveal: false })}
      onDoubleClick={() => app.prefs.update((p) => ({ ...p, detailOpen: true }))}
    >
      {row.getVisibleCells().map((cell) => (
        <div key={cell.column.id} role="gridcell" className={`tt-cell tt-col-${cell.column.id}`} style={{ width: cell.column.getSize() }}>
          {flexRender(cell.column.columnDef.cell, cell.getContext())}
        </div>
      ))}
    </div>
  );
});

function isHighlighted(selection: SelectionSnapshot, seq: number): boolean {
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
