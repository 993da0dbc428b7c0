import { formatDuration, formatOffset } from '../../model/format';
import type { LaneAxis } from '../../model/lane-axis';
import { columnHeight, laneColumns, type LaneScale } from '../../model/lane-scale';
import { typeCategory, type TypeCategory } from '../../model/row-view';
import type { TimelineModel } from '../../model/timeline';

export const LANE_HEIGHT = 28;
export const AXIS_HEIGHT = 22;

/** The theme variables (styles/theme.css) the canvas draws with: a tick takes its type's colour, as the table's rows do. */
export const LANE_VARIABLES = {
  text: '--t-text',
  thinking: '--t-thinking',
  tool: '--t-tool',
  result: '--t-result',
  meta: '--t-meta',
  error: '--t-error',
  control: '--t-control',
  other: '--t-other',
  selected: '--lane-selected',
  grid: '--border',
  label: '--text-dim',
  laneAlt: '--row-alt',
} as const satisfies Record<TypeCategory, string> & Record<string, string>;

type LaneColours = Record<keyof typeof LANE_VARIABLES, string>;
const CATEGORY_ORDER: readonly TypeCategory[] = [
  'other',
  'control',
  'meta',
  'text',
  'thinking',
  'result',
  'tool',
  'error',
];

/** The part of the axis on screen, in axis positions. */
export interface Viewport {
  readonly start: number;
  readonly end: number;
}

export interface DrawInput {
  width: number;
  height: number;
  view: Viewport;
  axis: LaneAxis;
  /** Receive time to axis position, idle gaps compressed (the time axis only). */
  scale: LaneScale;
  /** Where the axis starts: the session's start time, or envelope 0. */
  origin: number;
  /** An envelope's axis position. */
  at: (seq: number) => number;
  laneSeqs: readonly (readonly number[])[];
  timeline: TimelineModel;
  colours: LaneColours;
  /** When each leg started (receive-time clock); a line marks every leg after the first. */
  legStarts: readonly (number | undefined)[];
  selected: number | null;
  highlighted: readonly number[];
}

/** Draws the lanes; returns how many lanes were drawn as density strips (their marks overlap). */
export function drawLanes(context: CanvasRenderingContext2D, input: DrawInput): number {
  const { width, height, view, colours } = input;
  context.clearRect(0, 0, width, height);
  const toX = (position: number): number => ((position - view.start) / (view.end - view.start)) * width;

  input.laneSeqs.forEach((_, lane) => {
    if (lane % 2 === 1) {
      context.fillStyle = colours.laneAlt;
      context.fillRect(0, AXIS_HEIGHT + lane * LANE_HEIGHT, width, LANE_HEIGHT);
    }
  });
  context.font = '10px system-ui, sans-serif';
  context.lineWidth = 1;
  if (input.axis === 'time') {
    drawIdleGaps(context, input, toX);
    drawTimeTicks(context, input, toX);
    drawLegs(context, input, toX);
  } else drawSequenceTicks(context, input, toX);
  const dense = drawMarks(context, input, toX);
  drawSelection(context, input, toX);
  return dense;
}

function gridLine(context: CanvasRenderingContext2D, x: number, height: number, label: string): void {
  context.beginPath();
  context.moveTo(x, AXIS_HEIGHT - 4);
  context.lineTo(x, height);
  context.globalAlpha = 0.35;
  context.stroke();
  context.globalAlpha = 1;
  context.fillText(label, x + 3, 12);
}

/** Round steps of receive time; none inside an idle gap (it is drawn a few pixels wide). */
function drawTimeTicks(context: CanvasRenderingContext2D, input: DrawInput, toX: (p: number) => number): void {
  const { view, scale, origin, width, height, colours } = input;
  context.fillStyle = colours.label;
  context.strokeStyle = colours.grid;
  const step = niceStep((view.end - view.start) / Math.max(1, width / 90));
  const last = scale.time(view.end);
  for (
    let offset = Math.ceil((scale.time(view.start) - origin) / step) * step;
    origin + offset <= last;
    offset += step
  ) {
    const time = origin + offset;
    if (scale.gaps.some((gap) => time > gap.from && time < gap.to)) continue;
    gridLine(context, Math.round(toX(scale.position(time))) + 0.5, height, formatOffset(offset));
  }
}

function drawSequenceTicks(context: CanvasRenderingContext2D, input: DrawInput, toX: (p: number) => number): void {
  const { view, origin, width, height, colours } = input;
  context.fillStyle = colours.label;
  context.strokeStyle = colours.grid;
  const step = Math.max(1, niceStep((view.end - view.start) / Math.max(1, width / 90)));
  for (let offset = Math.ceil((view.start - origin) / step) * step; origin + offset <= view.end; offset += step)
    gridLine(context, Math.round(toX(origin + offset)) + 0.5, height, `#${offset}`);
}

/** Each compressed idle gap: a shaded band across the lanes, with how long nothing came. */
function drawIdleGaps(context: CanvasRenderingContext2D, input: DrawInput, toX: (p: number) => number): void {
  const { scale, height, colours } = input;
  for (const gap of scale.gaps) {
    const left = toX(scale.position(gap.from));
    const right = toX(scale.position(gap.to));
    if (right < 0 || left > input.width) continue;
    context.fillStyle = colours.grid;
    context.globalAlpha = 0.45;
    context.fillRect(left, AXIS_HEIGHT, Math.max(2, right - left), height - AXIS_HEIGHT);
    context.globalAlpha = 1;
    // Ends at the band's right edge: a leg that starts after the wait labels the other side.
    context.fillStyle = colours.label;
    context.textAlign = 'right';
    context.fillText(`${formatDuration(gap.to - gap.from)} idle ⋯`, right - 2, 21);
    context.textAlign = 'left';
  }
}

/** A dashed line where each leg after the first started (a continuation's request). */
function drawLegs(context: CanvasRenderingContext2D, input: DrawInput, toX: (p: number) => number): void {
  const { scale, height, colours } = input;
  context.strokeStyle = colours.selected;
  context.fillStyle = colours.selected;
  context.setLineDash([3, 3]);
  input.legStarts.forEach((start, leg) => {
    if (leg === 0 || start === undefined) return;
    const x = Math.round(toX(scale.position(start))) + 0.5;
    if (x < 0 || x > input.width) return;
    context.beginPath();
    context.moveTo(x, 0);
    context.lineTo(x, height);
    context.stroke();
    context.fillText(`leg ${leg}`, x + 3, 21);
  });
  context.setLineDash([]);
}

/**
 * Per lane and pixel column, the most important category, drawn once: a full-height tick
 * where marks stand apart, a density strip where they overlap.
 */
function drawMarks(context: CanvasRenderingContext2D, input: DrawInput, toX: (p: number) => number): number {
  const { timeline, colours, at } = input;
  const columns = Math.ceil(input.width);
  const full = LANE_HEIGHT - 10;
  let dense = 0;
  input.laneSeqs.forEach((seqs, lane) => {
    const lanes = laneColumns(
      columns,
      marksOf(seqs, timeline, (seq) => Math.floor(toX(at(seq)))),
    );
    const bottom = AXIS_HEIGHT + lane * LANE_HEIGHT + 5 + full;
    // Overlapping marks: one-pixel columns, so neighbours do not merge into a block.
    const barWidth = lanes.max > 1 ? 1 : 2;
    if (lanes.max > 1) dense++;
    for (let x = 0; x < columns; x++) {
      const rank = lanes.best[x] as number;
      if (rank < 0) continue;
      const bar = columnHeight(lanes.counts[x] as number, lanes.max, full);
      context.fillStyle = colours[CATEGORY_ORDER[rank] as TypeCategory];
      context.fillRect(x, bottom - bar, barWidth, bar);
    }
  });
  return dense;
}

function* marksOf(
  seqs: readonly number[],
  timeline: TimelineModel,
  xOf: (seq: number) => number,
): Iterable<{ x: number; rank: number }> {
  for (const seq of seqs) {
    const type = timeline.index.typeOf(seq) ?? '';
    const category =
      timeline.index.severityRank(seq) === 3
        ? 'error'
        : typeCategory(type, timeline.index.isControl(seq) ? 'undecoded' : undefined);
    yield { x: xOf(seq), rank: CATEGORY_ORDER.indexOf(category) };
  }
}

function drawSelection(context: CanvasRenderingContext2D, input: DrawInput, toX: (p: number) => number): void {
  const { timeline, colours, height, at } = input;
  const marks = input.selected !== null ? [input.selected] : [];
  for (const seq of [...input.highlighted.slice(0, 2000), ...marks]) {
    if (!timeline.index.isKnown(seq)) continue;
    const x = Math.round(toX(at(seq))) + 0.5;
    context.strokeStyle = seq === input.selected ? colours.selected : colours.tool;
    context.globalAlpha = seq === input.selected ? 0.9 : 0.35;
    context.beginPath();
    context.moveTo(x, AXIS_HEIGHT);
    context.lineTo(x, height);
    context.stroke();
    context.globalAlpha = 1;
  }
}

/** A round tick step (1, 2, 5 × 10^n) near `raw`. */
function niceStep(raw: number): number {
  const power = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-3))));
  const scaled = raw / power;
  const nice = scaled < 1.5 ? 1 : scaled < 3.5 ? 2 : scaled < 7.5 ? 5 : 10;
  return nice * power;
}
