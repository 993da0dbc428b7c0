import type { SessionSummary } from '../../src-shared/contract';
import type {
  ChunkStatistics,
  HistogramBucket,
  HistogramSummary,
  TypeOverhead,
} from '../../src-shared/diagnostics/chunk-stats';

/**
 * ChunkStatistics (getStats) → the series the chunk-size charts draw. Pure data: labels,
 * values and the budget marker; the view only picks colours and chart types.
 */

/** The statistics as sent by main, or null when the payload does not have their shape. */
export function asChunkStatistics(value: unknown): ChunkStatistics | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const isHistogram = (h: unknown): boolean =>
    typeof h === 'object' &&
    h !== null &&
    Array.isArray((h as Record<string, unknown>)['buckets']) &&
    typeof (h as Record<string, unknown>)['count'] === 'number';
  const ok =
    typeof v['budget'] === 'number' &&
    typeof v['budgetApplies'] === 'boolean' &&
    ['chunkBytes', 'frameBytes', 'payloadBytes', 'framesPerChunk', 'frameGapMs'].every((k) => isHistogram(v[k])) &&
    Array.isArray(v['byType']) &&
    Array.isArray(v['legs']) &&
    typeof v['fullness'] === 'object' &&
    v['fullness'] !== null;
  return ok ? (value as ChunkStatistics) : null;
}

export type Unit = 'bytes' | 'ms' | 'count';

export interface HistogramBar {
  label: string;
  lo: number;
  hi: number;
  count: number;
  /** The bucket lies wholly at or above the budget (for the frame-size chart). */
  overBudget: boolean;
}

/**
 * Sizes on the charts' axes, in binary units: the histograms' buckets are powers of two and
 * the upstream budget is 2,048 bytes, which read as 16–32 KiB and 2 KiB. Elsewhere (the
 * header, the rows, the tables) sizes are decimal (model/format.ts).
 */
export function formatBinaryBytes(n: number): string {
  if (!Number.isFinite(n)) return '∞';
  if (n < 1024) return `${Math.round(n)} B`;
  if (n < 1024 * 1024) return `${trim(n / 1024)} KiB`;
  return `${trim(n / (1024 * 1024))} MiB`;
}

/**
 * Ticks for a byte axis that formatBinaryBytes labels: steps of a power of two, at most
 * `intervals` of them from 0 past `max`. The chart library's own ticks are decimal (2,000,
 * 4,000…), which read "3.9 KiB", "5.9 KiB" in binary units.
 */
export function binaryByteTicks(max: number, intervals = 4): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0];
  let step = 1;
  while (step * intervals < max) step *= 2;
  const count = Math.ceil(max / step);
  return Array.from({ length: count + 1 }, (_, i) => i * step);
}

export function formatMs(n: number): string {
  if (!Number.isFinite(n)) return '∞';
  if (n < 1) return `${trim(n)} ms`;
  if (n < 1000) return `${Math.round(n)} ms`;
  return `${trim(n / 1000)} s`;
}

function trim(n: number): string {
  return n >= 10 ? String(Math.round(n)) : String(Math.round(n * 10) / 10);
}

/** Compact bound for byte and count labels: 1024 → "1K", 2048 → "2K", 1048576 → "1M". */
function bound(n: number, unit: Unit): string {
  if (unit !== 'bytes') return String(n);
  if (n >= 2 ** 30) return `${n / 2 ** 30}G`;
  if (n >= 2 ** 20) return `${n / 2 ** 20}M`;
  if (n >= 1024) return `${n / 1024}K`;
  return String(n);
}

/** "0", "1", "2–3", "1K–2K", "≥ 64K", "4–8 ms", "1–2 s": integer buckets read as closed ranges. */
export function bucketLabel(bucket: Pick<HistogramBucket, 'lo' | 'hi'>, unit: Unit): string {
  if (unit === 'ms') {
    if (!Number.isFinite(bucket.hi)) return `≥ ${formatMs(bucket.lo)}`;
    if (bucket.hi <= 1024) return `${bucket.lo}–${bucket.hi} ms`;
    return `${trim(bucket.lo / 1000)}–${trim(bucket.hi / 1000)} s`;
  }
  if (!Number.isFinite(bucket.hi)) return `≥ ${bound(bucket.lo, unit)}`;
  if (bucket.hi - bucket.lo <= 1) return bound(bucket.lo, unit);
  if (bucket.lo >= 1024 && unit === 'bytes') return `${bound(bucket.lo, unit)}–${bound(bucket.hi, unit)}`;
  return `${bound(bucket.lo, unit)}–${bucket.hi - 1}`;
}

export function histogramBars(summary: HistogramSummary, unit: Unit, budget?: number): HistogramBar[] {
  return summary.buckets.map((b) => ({
    label: bucketLabel(b, unit),
    lo: b.lo,
    hi: b.hi,
    count: b.count,
    overBudget: budget !== undefined && b.lo >= budget,
  }));
}

export interface BudgetMarker {
  /** The bar label the marker is drawn at. */
  label: string;
  /** At the bar's left edge (the budget is its lower bound) or its middle (inside it). */
  position: 'start' | 'middle';
}

/**
 * Where the budget line goes on a histogram: buckets are powers of two, so a power-of-two
 * budget (2048) is the left edge of its bucket. null when no bar reaches the budget's bucket
 * and it would fall outside the chart; then the chart extends itself with an empty bar.
 */
export function budgetMarker(bars: readonly HistogramBar[], budget: number): BudgetMarker | null {
  for (const bar of bars) {
    if (bar.lo === budget) return { label: bar.label, position: 'start' };
    if (bar.lo < budget && budget < bar.hi) return { label: bar.label, position: 'middle' };
  }
  return null;
}

/**
 * Frame-size bars extended with empty buckets up to the budget's, so that the budget line is
 * always drawn, even when every frame is far below it. A session whose dialects are not
 * chunked against the budget gets its bars alone: no line, no bar over it.
 */
export function frameSizeBars(stats: ChunkStatistics): { bars: HistogramBar[]; marker: BudgetMarker | null } {
  if (!stats.budgetApplies) return { bars: histogramBars(stats.frameBytes, 'bytes'), marker: null };
  const bars = histogramBars(stats.frameBytes, 'bytes', stats.budget);
  const last = bars.at(-1);
  if (last && Number.isFinite(last.hi) && last.hi <= stats.budget) {
    let lo = last.hi;
    while (lo <= stats.budget) {
      const hi = lo * 2;
      bars.push({ label: bucketLabel({ lo, hi }, 'bytes'), lo, hi, count: 0, overBudget: lo >= stats.budget });
      lo = hi;
    }
  }
  return { bars, marker: budgetMarker(bars, stats.budget) };
}

export interface OverheadBar {
  /** Envelope type, with the dialect when the session mixes dialects. */
  label: string;
  type: string;
  dialect: string;
  envelopes: number;
  payload: number;
  /** Envelope fields and keys (wire − payload − escaping extra, never negative). */
  envelope: number;
  /** Extra bytes JSON escaping added to the payload (JSON dialect; 0 otherwise). */
  escaping: number;
  overBudget: number;
  /** wire / payload: 1 means no overhead at all. */
  ratio: number;
}

/**
 * The types whose payload is larger than the bytes counted for them on the wire. An event's
 * bytes count once, for its first envelope, so the others it carries (a Gemini chunk's text and
 * its finish, an MCP result's content parts) have payload and no wire bytes; and a dialect's
 * summaries (a message's usage, the tools a run awaits) are its own JSON, on no wire at all.
 * The chart says so rather than let their bars pass for bytes received.
 */
export function payloadBeyondWire(byType: readonly TypeOverhead[]): string[] {
  const label = typeLabels(byType);
  return byType.filter((t) => t.payloadBytes > t.wireBytes).map(label);
}

/** A type's name, with its dialect when the session mixes dialects. */
function typeLabels(byType: readonly TypeOverhead[]): (t: TypeOverhead) => string {
  const mixed = new Set(byType.map((t) => t.dialect)).size > 1;
  return (t) => (mixed ? `${t.type} (${t.dialect})` : t.type);
}

/** Payload versus envelope overhead per type, largest wire share first. */
export function overheadBars(byType: readonly TypeOverhead[]): OverheadBar[] {
  const label = typeLabels(byType);
  return [...byType]
    .sort((a, b) => b.wireBytes - a.wireBytes || a.type.localeCompare(b.type))
    .map((t) => {
      const escaping = t.escapedPayloadBytes !== undefined ? Math.max(0, t.escapedPayloadBytes - t.payloadBytes) : 0;
      return {
        label: label(t),
        type: t.type,
        dialect: t.dialect,
        envelopes: t.envelopes,
        payload: t.payloadBytes,
        envelope: Math.max(0, t.overheadBytes - escaping),
        escaping,
        overBudget: t.overBudget,
        ratio: t.payloadBytes === 0 ? (t.wireBytes === 0 ? 1 : Infinity) : t.wireBytes / t.payloadBytes,
      };
    });
}

export interface FullnessSlice {
  name: 'full' | 'underfull' | 'overfull';
  value: number;
}

export function fullnessSlices(stats: ChunkStatistics): FullnessSlice[] {
  const f = stats.fullness;
  return [
    { name: 'full', value: f.full },
    { name: 'underfull', value: f.underfull },
    { name: 'overfull', value: f.overfull },
  ];
}

export interface LegBar {
  label: string;
  chunks: number;
  frames: number;
  splitFrames: number;
  envelopes: number;
  bytes: number;
  /** ms from the leg's request (else its first network chunk) to its first envelope; null when unknown. */
  timeToFirstEnvelope: number | null;
  /** What the time counts from. */
  from: 'request' | 'first chunk';
}

/** A request more than this before its first envelope is on another clock (an imported file). */
const SAME_CLOCK_MS = 3_600_000;

/**
 * Per leg: chunks, frames and the time to the first envelope, counted from the request when
 * the leg's start is known on the same clock (`legStarts`, from the session's legs), so the
 * server's time to answer is included; from the first network chunk otherwise. A session with
 * no receive times at all (a file of bytes alone) has every envelope "at" its first chunk:
 * the 0 ms that gives is not a measurement, so the time is unknown there.
 */
export function legBars(stats: ChunkStatistics, legStarts: readonly (number | undefined)[] = []): LegBar[] {
  const timed = hasTiming(stats);
  return stats.legs.map((leg) => {
    const start = legStarts[leg.leg];
    const fromRequest =
      start !== undefined &&
      start > 0 &&
      leg.firstEnvelopeAt !== null &&
      start <= leg.firstEnvelopeAt &&
      leg.firstEnvelopeAt - start < SAME_CLOCK_MS;
    return {
      label: `leg ${leg.leg}`,
      chunks: leg.chunks,
      frames: leg.frames,
      splitFrames: leg.splitFrames,
      envelopes: leg.envelopes,
      bytes: leg.bytes,
      timeToFirstEnvelope: fromRequest
        ? leg.firstEnvelopeAt! - start
        : !timed && leg.timeToFirstEnvelope === 0
          ? null
          : leg.timeToFirstEnvelope,
      from: fromRequest ? 'request' : 'first chunk',
    };
  });
}

/** One-line summary of a histogram: "n 135 · min 92 B · p50 180 B · p95 2 KiB · max 2.1 KiB". */
export function histogramSummaryLine(summary: HistogramSummary, unit: Unit): string {
  if (summary.count === 0) return 'none';
  const f = unit === 'bytes' ? formatBinaryBytes : unit === 'ms' ? formatMs : (n: number) => trim(n);
  return `n ${summary.count} · min ${f(summary.min)} · p50 ${f(summary.p50)} · p95 ${f(summary.p95)} · max ${f(summary.max)}`;
}

/** Whether a session recorded any timing (a file without receive times has all gaps 0). */
export function hasTiming(stats: ChunkStatistics): boolean {
  return stats.frameGapMs.count > 0 && stats.frameGapMs.max > 0;
}

/**
 * Whether a session's chunks are network reads (live sessions, recordings), which the
 * chunks-vs-frames chart is about, and not blocks a file was read in. A replay has the chunks
 * of the session it plays: followed through replays of replays; unknown (its source closed)
 * counts as network reads.
 */
export function hasNetworkChunks(
  summary: Pick<SessionSummary, 'source'>,
  sessions: readonly Pick<SessionSummary, 'id' | 'source'>[],
): boolean {
  let source = summary.source;
  for (let hops = 0; source.kind === 'replay' && hops <= sessions.length; hops++) {
    const of = source.of;
    const next = sessions.find((s) => s.id === of);
    if (!next) return true;
    source = next.source;
  }
  return source.kind === 'live' || (source.kind === 'file' && source.importer === 'recording');
}
