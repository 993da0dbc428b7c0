import {
  createColumnHelper,
  getCoreRowModel,
  useReactTable,
  type ColumnSizingState,
  type Updater,
  type VisibilityState,
} from '@tanstack/react-table';
import { useCallback, useEffect, useLayoutEffect, useId, useMemo, useRef, useState } from 'react';
import type { RendererApp } from '../../model/types';
import { useStore } from '../../app/hooks';
import { uiCommands } from '../../app/ui-commands';
import type { AgentLabel } from '../../model/agents';
import {
  layoutColumns,
  resizeColumn,
  seqDigitsOf,
  TIMELINE_COLUMNS,
  typeLabelChars,
  type ColumnId,
} from '../../model/columns';
import { EMPTY_FILTER } from '../../model/row-filter';
import { rowWindow, scrollTopFor } from '../../model/row-window';
import type { TimelineModel, TimelineSnapshot } from '../../model/timeline';
import { windowRows, type WindowContext, type WindowRow as DisplayRow } from '../../model/window-rows';
import { TEST_IDS } from '../../testids';
import { isHighlighted, ROW_HEIGHT, rowId, TimelineRowView } from './TimelineRow';
import { TimelineHeader } from './TimelineHeader';
import { useElementWidth, useScrollGeometry } from './use-element-geometry';
import { useRowKeys } from './use-row-keys';

const HEADER_HEIGHT = 24;
/** Rows rendered beyond each side of the viewport. */
const OVERSCAN = 16;
/** Rows kept above the viewport while following the newest rows (nothing lies below them). */
const FOLLOW_OVERSCAN = 4;

const column = createColumnHelper<DisplayRow>();

/**
 * The last reveal request a table carried out. Module-wide because the table unmounts when
 * another view is shown, and the request that brings it back must still be carried out once.
 */
let handledReveal = 0;

// The table library lays out the columns (widths, resizing, which are shown); the body draws
// each row's cells itself from CELLS, without the library's row and cell objects, which it
// would make again for every row of every frame while a fast stream is followed.
const COLUMNS = TIMELINE_COLUMNS.map((spec) =>
  column.display({
    id: spec.id,
    header: () => <span title={spec.title}>{spec.label}</span>,
    size: spec.width,
    minSize: spec.minWidth,
    enableResizing: spec.id !== 'delta',
  }),
);
const NO_ROWS: DisplayRow[] = [];

export interface TimelineTableProps {
  readonly app: RendererApp;
  readonly timeline: TimelineModel;
  readonly snapshot: TimelineSnapshot;
  readonly labels: ReadonlyMap<string, AgentLabel>;
  readonly sessionStart: number;
  /** The session carries receive times (model/lane-axis.ts, `sessionIsTimed`). */
  readonly timed: boolean;
  readonly live: boolean;
  /** Told which chosen columns do not fit at the table's width. */
  readonly onDropped?: (columns: readonly ColumnId[]) => void;
}

/**
 * The envelopes as a virtualized table: @tanstack/react-table for the columns over a
 * fixed-height row window (model/row-window.ts: constant work per render however many rows).
 * Only the rows in view are materialised; missing ones are fetched by page. While the session is live the table
 * follows new rows, but only if the user was at the bottom.
 */
export function TimelineTable({
  app,
  timeline,
  snapshot,
  labels,
  sessionStart,
  timed,
  live,
  onDropped,
}: TimelineTableProps) {
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
  const prefs = useStore(app.prefs);
  const wrap = useRef<HTMLDivElement>(null);
  const tableWidth = useElementWidth(wrap);
  const seqDigits = seqDigitsOf(snapshot.total);
  // The longest type label of the rows seen so far: the Type column fits it, and never narrows
  // while the session shows (scrolling would make it jump). One table per session (keyed).
  const [typeChars, setTypeChars] = useState(0);
  const layout = useMemo(
    () => layoutColumns(tableWidth, prefs.columns, { seqDigits, typeChars }),
    [tableWidth, prefs.columns, seqDigits, typeChars],
  );
  const layoutSizing = useMemo<ColumnSizingState>(
    () => Object.fromEntries(layout.columns.map((c) => [c.id, c.width])),
    [layout],
  );
  // Widths being dragged; remembered in the preferences when the drag ends.
  const [dragSizing, setDragSizing] = useState<ColumnSizingState>({});
  const columnSizing = useMemo(() => ({ ...layoutSizing, ...dragSizing }), [layoutSizing, dragSizing]);
  const columnVisibility = useMemo<VisibilityState>(
    () => Object.fromEntries(TIMELINE_COLUMNS.map((c) => [c.id, layout.columns.some((shown) => shown.id === c.id)])),
    [layout],
  );
  const droppedKey = layout.dropped.join(',');
  useEffect(() => onDropped?.(droppedKey === '' ? [] : (droppedKey.split(',') as ColumnId[])), [droppedKey, onDropped]);
  // The table computes a drag's widths inside its own state updates: hand it a state setter.
  const onColumnSizingChange = useCallback(
    (change: Updater<ColumnSizingState>) =>
      setDragSizing((old) => (typeof change === 'function' ? change({ ...layoutSizing, ...old }) : change)),
    [layoutSizing],
  );
  const count = snapshot.visibleCount;
  const { scrollTop, clientHeight } = useScrollGeometry(scroller);
  const geometry = { count, rowHeight: ROW_HEIGHT, headerHeight: HEADER_HEIGHT, clientHeight };
  // While following, the newest rows, in the same render as the scroll to the bottom.
  // The rows beyond the viewport only from the next frame on: the first one (a file's first
  // rows appearing) builds the table and lays out the view around it in one task already.
  const [overscanReady, setOverscanReady] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setOverscanReady(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  const shown = rowWindow({
    ...geometry,
    scrollTop,
    following,
    overscan: !overscanReady ? 0 : following ? FOLLOW_OVERSCAN : OVERSCAN,
  });
  const first = shown.first;
  // No rows before the table's size is known (the mount's first pass, measured by the layout
  // effects before it paints): rows laid out for a zero-sized table would be made only to be
  // replaced in the same frame.
  const measured = clientHeight > 0 && tableWidth > 0;
  const last = measured ? shown.end - 1 : first - 1;
  const scrollToPosition = useCallback(
    (position: number, align: 'center' | 'nearest') => {
      const element = scroller.current;
      if (!element) return;
      const top = scrollTopFor(
        {
          count,
          rowHeight: ROW_HEIGHT,
          headerHeight: HEADER_HEIGHT,
          clientHeight: element.clientHeight,
          scrollTop: element.scrollTop,
        },
        position,
        align,
      );
      if (top !== null) element.scrollTop = top;
    },
    [count],
  );

  // Rows of the window: recomputed when the window moves or the timeline changes, keeping the
  // rows (and the array) that stayed as they were, so a batch that changes none re-renders none.
  const context = useMemo<WindowContext>(() => ({ sessionStart, labels, timed }), [sessionStart, labels, timed]);
  const previousRows = useRef<readonly DisplayRow[]>([]);
  const rows = useMemo(() => {
    previousRows.current = windowRows(previousRows.current, first, last, timeline, context);
    return previousRows.current;
    // snapshot.version: rows and pages change in place in the model.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [first, last, timeline, snapshot.version, context]);

  useEffect(() => {
    if (last >= first) timeline.ensurePositions(first, last + 1);
  }, [first, last, timeline, snapshot.version]);

  useEffect(() => {
    let longest = 0;
    for (const row of rows)
      if (row.cells) longest = Math.max(longest, typeLabelChars(row.cells.type, row.cells.unified));
    setTypeChars((seen) => Math.max(seen, longest));
  }, [rows]);

  const table = useReactTable({
    data: NO_ROWS,
    columns: COLUMNS,
    getCoreRowModel: getCoreRowModel(),
    columnResizeMode: 'onChange',
    enableColumnResizing: true,
    state: { columnSizing, columnVisibility },
    onColumnSizingChange,
  });
  const resizing = table.getState().columnSizingInfo.isResizingColumn;
  useEffect(() => {
    if (resizing !== false || Object.keys(dragSizing).length === 0) return;
    app.prefs.update((p) => {
      let columns = p.columns;
      for (const [id, width] of Object.entries(dragSizing))
        if (width !== layoutSizing[id]) columns = resizeColumn(columns, id as ColumnId, width);
      return columns === p.columns ? p : { ...p, columns };
    });
    setDragSizing({});
  }, [resizing, dragSizing, layoutSizing, app]);
  const visibleColumns = table.getVisibleLeafColumns();

  // Follow new rows. One scroll write per frame (the browser clamps it to the end); no layout
  // reads, which a fast stream would pay for on every frame. A smaller table (a smaller window,
  // a taller header) keeps its scroll offset, which is then no longer the end: scroll again.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !followingRef.current || count === 0) return;
    element.scrollTop = HEADER_HEIGHT + count * ROW_HEIGHT;
  }, [count, following, clientHeight]);

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
    scrollToPosition(position, 'center');
    if (pending) scroller.current?.focus({ preventScroll: true });
  }, [selection.revealRevision, selection.row, timeline, snapshot.filterActive, scrollToPosition, app, setFollowing]);

  const selectedPosition = selection.row === null ? -1 : timeline.positionOf(selection.row);
  const gridId = useId();
  const selectedRendered = selectedPosition >= first && selectedPosition <= last;

  const onKeyDown = useRowKeys({
    app,
    timeline,
    scroller,
    count,
    selectedPosition,
    selectedRow: selection.row,
    live,
    setFollowing,
    scrollToPosition,
  });

  // Where the rows' block sits in the body. While following, at the window's first row: each
  // update then moves this one offset, not every row. Otherwise at the body's top, so a row
  // keeps its place while the user scrolls.
  const rowsOrigin = following ? shown.top(first) : 0;

  const headerGroup = table.getHeaderGroups()[0];
  // Explicit widths: rows never size to their content, so layout stays cheap per frame.
  const width = table.getTotalSize();

  return (
    <div className="timeline-table-wrap" ref={wrap}>
      <div
        ref={scroller}
        className="timeline-table"
        role="grid"
        // The header is row 1; envelope rows follow (only those in view exist, each with its index).
        aria-rowcount={count + 1}
        aria-colcount={visibleColumns.length}
        aria-label="Envelopes"
        aria-activedescendant={selectedRendered ? rowId(gridId, selection.row!) : undefined}
        tabIndex={0}
        data-testid={TEST_IDS.timelineTable}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
      >
        <TimelineHeader app={app} headers={headerGroup?.headers ?? []} height={HEADER_HEIGHT} width={width} />
        <div className="tt-body" role="presentation" style={{ height: shown.bodyHeight, width }}>
          {/* While following, the window's rows move as one (see rowsOrigin). */}
          <div className="tt-rows" role="rowgroup" style={{ transform: `translateY(${rowsOrigin}px)` }}>
            {rows.map((row) => {
              const { position, seq } = row;
              return (
                <TimelineRowView
                  // While following, every row on view changes at every update: keyed by
                  // place in the window, so new rows change the text of the same elements
                  // and never their order in the DOM. Otherwise keyed by slot: a row leaving
                  // the window hands its elements to the row entering it, and the rows that
                  // stay keep theirs. Two sets of keys: a row's elements never pass to
                  // another row when following starts or stops.
                  key={following ? `f${position - first}` : position % (shown.end - shown.first)}
                  app={app}
                  gridId={gridId}
                  row={row}
                  columns={visibleColumns}
                  top={following ? (position - first) * ROW_HEIGHT : shown.top(position)}
                  width={width}
                  sizing={columnSizing}
                  selected={seq === selection.row}
                  highlighted={isHighlighted(selection, seq)}
                />
              );
            })}
          </div>
        </div>
      </div>
      {live && !following && count > 0 && (
        <button
          type="button"
          className="follow-button"
          data-testid={TEST_IDS.followButton}
          onClick={follow}
          title="Jump to the newest row and follow (F)"
        >
          ↓ Follow new rows
        </button>
      )}
    </div>
  );
}
