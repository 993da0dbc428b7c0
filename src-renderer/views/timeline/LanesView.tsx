import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent, type WheelEvent } from 'react';
import type { RendererApp } from '../../model/types';
import { withDetailOpen } from '../../model/preferences';
import { useStore } from '../../app/hooks';
import { useThrottled } from '../../app/use-throttled';
import { useThemeColours } from '../../app/theme-colours';
import { agentTreeOrder, fallbackLabel, type AgentLabel } from '../../model/agents';
import { formatOffset } from '../../model/format';
import { laneAxis } from '../../model/lane-axis';
import { laneScale } from '../../model/lane-scale';
import type { TimelineModel, TimelineSnapshot } from '../../model/timeline';
import { TEST_IDS } from '../../testids';
import { AXIS_HEIGHT, drawLanes, LANE_HEIGHT, LANE_VARIABLES, type Viewport } from './lanes-draw';

const REDRAW_INTERVAL_MS = 250;
const LABEL_WIDTH = 150;

/**
 * One lane per agent across time: each envelope is a tick at its receive time (in order of
 * arrival for a file without timing), coloured by type, so interleaved sub-agents can be
 * seen side by side. Drawn on a canvas from the row
 * index (a few bytes per row), so a million envelopes still draw in one pass. Wheel zooms,
 * drag pans, click selects the nearest envelope of the lane.
 */
export function LanesView({
  app,
  timeline,
  snapshot,
  labels,
  sessionStart,
  legStarts,
}: {
  app: RendererApp;
  timeline: TimelineModel;
  snapshot: TimelineSnapshot;
  labels: ReadonlyMap<string, AgentLabel>;
  sessionStart: number;
  /** When each leg's request started, for the lines between legs. */
  legStarts: readonly (number | undefined)[];
}) {
  const theme = useStore(app.theme);
  const colours = useThemeColours(theme, LANE_VARIABLES);
  const selection = useStore(app.selection);
  const canvas = useRef<HTMLCanvasElement>(null);
  const plot = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  const [viewport, setViewport] = useState<Viewport | null>(null);
  const [hover, setHover] = useState<{ x: number; y: number; seq: number } | null>(null);
  const drag = useRef<{ x: number; viewport: Viewport } | null>(null);

  useEffect(() => timeline.backfill(), [timeline]);
  // Redrawing walks every row: while rows stream in, at most a few times a second.
  const version = useThrottled(snapshot.version, REDRAW_INTERVAL_MS);

  const lanes = useMemo(() => {
    const present = new Set(timeline.index.agents);
    const ordered = agentTreeOrder(labels).filter((l) => present.has(l.uuid));
    for (const uuid of timeline.index.agents)
      if (!ordered.some((l) => l.uuid === uuid)) ordered.push(labels.get(uuid) ?? fallbackLabel(uuid));
    return ordered;
    // The index's agent list grows in place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [labels, timeline, timeline.index.agents.length]);

  // Seqs per lane in time order, for hit-testing; rebuilt when rows change.
  const laneSeqs = useMemo(() => {
    const laneOfAgent = new Map<number, number>();
    lanes.forEach((label, lane) => {
      const id = timeline.index.agentIdOf(label.uuid);
      if (id !== undefined) laneOfAgent.set(id, lane);
    });
    const perLane: number[][] = lanes.map(() => []);
    for (let position = 0; position < snapshot.visibleCount; position++) {
      const seq = timeline.seqAt(position);
      if (seq === undefined || !timeline.index.isKnown(seq)) continue;
      const lane = laneOfAgent.get(timeline.index.agentId(seq));
      if (lane !== undefined) perLane[lane]!.push(seq);
    }
    return perLane;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lanes, timeline, version]);

  const axis = useMemo(
    () => laneAxis(timeline.index),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [timeline, version],
  );
  const origin = axis === 'time' ? sessionStart : 0;
  const scale = useMemo(
    () => laneScale(timeline.index, origin),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [timeline, origin, version],
  );
  const at = useCallback(
    (seq: number) => (axis === 'time' ? scale.position(timeline.index.receivedAt(seq)) : seq),
    [axis, scale, timeline],
  );

  const fullRange = useMemo<Viewport>(() => {
    let end = origin + 1;
    for (const seqs of laneSeqs) {
      const lastSeq = seqs[seqs.length - 1];
      if (lastSeq !== undefined) end = Math.max(end, at(lastSeq));
    }
    return { start: origin, end: end + Math.max(1, (end - origin) * 0.03) };
  }, [laneSeqs, origin, at]);

  const view = viewport ?? fullRange;

  useEffect(() => {
    const element = plot.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(100, element.clientWidth)));
    observer.observe(element);
    setWidth(Math.max(100, element.clientWidth));
    return () => observer.disconnect();
  }, []);

  const height = AXIS_HEIGHT + lanes.length * LANE_HEIGHT;

  useEffect(() => {
    const element = canvas.current;
    const context = element?.getContext('2d');
    if (!element || !context) return;
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.round(width * ratio);
    element.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    element.dataset['denseLanes'] = String(
      drawLanes(context, {
        width,
        height,
        view,
        axis,
        scale,
        origin,
        at,
        laneSeqs,
        timeline,
        colours,
        legStarts,
        selected: selection.row,
        highlighted: selection.envelopes,
      }),
    );
  }, [
    width,
    height,
    view,
    axis,
    scale,
    origin,
    at,
    laneSeqs,
    timeline,
    colours,
    legStarts,
    selection.row,
    selection.envelopes,
  ]);

  const xToTime = useCallback((x: number) => view.start + (x / width) * (view.end - view.start), [view, width]);

  const hit = (event: MouseEvent<HTMLDivElement>): { x: number; y: number; seq: number } | null => {
    const rect = event.currentTarget.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const lane = Math.floor((y - AXIS_HEIGHT) / LANE_HEIGHT);
    const seqs = laneSeqs[lane];
    if (!seqs || seqs.length === 0) return null;
    const seq = nearestByTime(seqs, xToTime(x), at);
    const px = ((at(seq) - view.start) / (view.end - view.start)) * width;
    return Math.abs(px - x) <= 8 ? { x, y, seq } : null;
  };

  const onWheel = (event: WheelEvent<HTMLDivElement>): void => {
    const rect = event.currentTarget.getBoundingClientRect();
    const anchor = xToTime(event.clientX - rect.left);
    const factor = Math.exp(event.deltaY * 0.0015);
    const span = Math.max(1, (view.end - view.start) * factor);
    const ratio = (anchor - view.start) / (view.end - view.start);
    const start = anchor - ratio * span;
    setViewport(span >= fullRange.end - fullRange.start ? null : { start, end: start + span });
  };

  return (
    <div
      className="lanes-view"
      data-testid={TEST_IDS.lanesView}
      data-axis={axis}
      data-idle-gaps={scale.gaps.length}
      data-legs={legStarts.length}
    >
      <div className="lanes-toolbar">
        <span
          className="hint lanes-hint"
          title="Each tick is an envelope at its receive time; where ticks overlap, a bar's height says how many. Stretches where nothing arrived are drawn narrow with their length, and a dashed line marks where each leg started. Wheel to zoom, drag to pan, click a tick to select it."
        >
          One lane per agent · wheel zooms · drag pans · click selects
        </span>
        {axis === 'sequence' && (
          <span
            className="hint lanes-axis-note"
            data-testid={TEST_IDS.lanesAxisNote}
            title="Every envelope of this session has the same receive time (a file without timing), so the lanes show them in order of arrival."
          >
            x = envelope # (no receive times)
          </span>
        )}
        <span className="spacer" />
        <span className="legend">
          {(['text', 'thinking', 'tool', 'result', 'meta', 'error'] as const).map((c) => (
            <span key={c} className="legend-item">
              <span className="legend-swatch" style={{ background: `var(${LANE_VARIABLES[c]})` }} />
              {c}
            </span>
          ))}
        </span>
        <button
          type="button"
          className="button button-small"
          disabled={viewport === null}
          onClick={() => setViewport(null)}
        >
          Fit
        </button>
      </div>
      <div className="lanes-body">
        <div className="lanes-labels" style={{ width: LABEL_WIDTH }}>
          <div style={{ height: AXIS_HEIGHT }} />
          {lanes.map((label, lane) => (
            <div
              key={label.uuid}
              className="lane-label"
              data-testid={TEST_IDS.lane}
              data-agent={label.uuid}
              style={{ height: LANE_HEIGHT, paddingLeft: 8 + label.indent * 12 }}
              title={label.uuid}
            >
              <span className="agent-dot" style={{ background: label.colour }} />
              <span className="lane-name">{label.name}</span>
              <span className="lane-count">{laneSeqs[lane]?.length ?? 0}</span>
            </div>
          ))}
          {lanes.length === 0 && <div className="hint lane-empty">No envelopes yet.</div>}
        </div>
        <div
          ref={plot}
          className="lanes-plot"
          onWheel={onWheel}
          onMouseDown={(event) => {
            drag.current = { x: event.clientX, viewport: view };
          }}
          onMouseMove={(event) => {
            const start = drag.current;
            if (start && event.buttons === 1) {
              const dt = ((event.clientX - start.x) / width) * (start.viewport.end - start.viewport.start);
              if (Math.abs(event.clientX - start.x) > 2)
                setViewport({ start: start.viewport.start - dt, end: start.viewport.end - dt });
              return;
            }
            setHover(hit(event));
          }}
          onMouseUp={(event) => {
            const start = drag.current;
            drag.current = null;
            if (start && Math.abs(event.clientX - start.x) > 2) return;
            const target = hit(event);
            if (target) {
              app.selectRow(target.seq, { reveal: false });
              app.prefs.update(withDetailOpen);
            }
          }}
          onMouseLeave={() => {
            drag.current = null;
            setHover(null);
          }}
        >
          <canvas ref={canvas} style={{ width, height }} data-testid={TEST_IDS.lanesCanvas} />
          {hover && (
            <LaneTooltip
              timeline={timeline}
              seq={hover.seq}
              x={hover.x}
              y={hover.y}
              sessionStart={axis === 'time' ? sessionStart : null}
            />
          )}
        </div>
      </div>
    </div>
  );
}

/** `sessionStart` null: the session has no receive times to show. */
function LaneTooltip({
  timeline,
  seq,
  x,
  y,
  sessionStart,
}: {
  timeline: TimelineModel;
  seq: number;
  x: number;
  y: number;
  sessionStart: number | null;
}) {
  const row = timeline.getRow(seq);
  return (
    <div className="lane-tooltip" style={{ left: x + 12, top: y + 12 }}>
      <div>
        <b>#{seq}</b> {timeline.index.typeOf(seq)} {timeline.index.isFinal(seq) ? '(final)' : ''}
      </div>
      {sessionStart !== null && (
        <div className="dim">{formatOffset(timeline.index.receivedAt(seq) - sessionStart)} s</div>
      )}
      {row && row.preview && <div className="lane-tooltip-preview">{row.preview.slice(0, 120)}</div>}
    </div>
  );
}

function nearestByTime(seqs: readonly number[], time: number, timeOf: (seq: number) => number): number {
  let low = 0;
  let high = seqs.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (timeOf(seqs[mid]!) < time) low = mid + 1;
    else high = mid;
  }
  const after = seqs[low]!;
  const before = seqs[Math.max(0, low - 1)]!;
  return Math.abs(timeOf(before) - time) <= Math.abs(timeOf(after) - time) ? before : after;
}
