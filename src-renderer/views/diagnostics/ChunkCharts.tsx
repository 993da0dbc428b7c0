import { Bar, BarChart, CartesianGrid, Cell, Legend, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChunkStatistics } from '../../../src-shared/diagnostics/chunk-stats';
import { useThemeColours } from '../../app/theme-colours';
import type { ThemeName } from '../../model/types';
import {
  binaryByteTicks,
  formatBinaryBytes,
  formatMs,
  frameSizeBars,
  fullnessSlices,
  hasTiming,
  histogramBars,
  histogramSummaryLine,
  legBars,
  overheadBars,
  payloadBeyondWire,
} from '../../model/diagnostics-charts';
import { formatBytes, formatCompact, formatCountOf } from '../../model/format';
import { DIAGNOSTIC_IDS } from './testids';
import { FRAME_SIZES_CHART, OVERHEAD_CHART } from './ChartsPlaceholder';
import {
  axisProps,
  ChartCard,
  ChartFrame,
  FONT,
  labelText,
  legendProps,
  MARGIN,
  PALETTE_VARIABLES,
  tooltipProps,
} from './chart-parts';

/**
 * The chunk-size charts of a session (ChunkStatistics from getStats): frame sizes against the
 * budget, overhead per envelope type, chunk fullness, network chunks against frames,
 * inter-arrival gaps and time to first envelope.
 *
 * `legStarts`: when each leg's request was sent (the session's legs), for the time to first
 * envelope; `networkChunks`: the session's chunks are network reads (live, recordings), not
 * blocks of a file, so comparing them with frames means something.
 */
export function ChunkCharts({
  stats,
  theme,
  onEnvelope,
  legStarts,
  networkChunks,
}: {
  stats: ChunkStatistics;
  theme: ThemeName;
  onEnvelope: (seq: number) => void;
  legStarts: readonly (number | undefined)[];
  networkChunks: boolean;
}) {
  const p = useThemeColours(theme, PALETTE_VARIABLES);
  const frames = frameSizeBars(stats);
  const overBudgetFrames = frames.bars.filter((b) => b.overBudget).reduce((n, b) => n + b.count, 0);
  const overhead = overheadBars(stats.byType);
  const overBudget = overhead.filter((o) => o.overBudget > 0);
  const beyondWire = payloadBeyondWire(stats.byType);
  const fullness = fullnessSlices(stats);
  const legs = legBars(stats, legStarts);
  const fromRequest = legs.every((l) => l.from === 'request');
  const perChunk = histogramBars(stats.framesPerChunk, 'count');
  const gaps = histogramBars(stats.frameGapMs, 'ms');
  const timing = hasTiming(stats);
  const overheadHeight = Math.max(OVERHEAD_CHART.minHeight, 26 * overhead.length + 50);
  const overheadTicks = binaryByteTicks(Math.max(0, ...overhead.map((o) => o.payload + o.envelope + o.escaping)));

  return (
    <div className="chunk-charts" data-testid={DIAGNOSTIC_IDS.charts}>
      <ChartCard
        title={FRAME_SIZES_CHART.title}
        subtitle={histogramSummaryLine(stats.frameBytes, 'bytes')}
        testId={DIAGNOSTIC_IDS.chartFrameSizes}
        note={
          <>
            {stats.budgetApplies ? (
              <>
                Red line: the upstream chunk budget of {formatBinaryBytes(stats.budget)} ({stats.budget} bytes of event
                data).{' '}
                {overBudgetFrames > 0 ? (
                  <strong className="warn-text">
                    {overBudgetFrames} frame{overBudgetFrames === 1 ? '' : 's'} at or over it.
                  </strong>
                ) : (
                  'No frame reaches it.'
                )}
              </>
            ) : (
              "No chunk budget applies: only the upstream agent's JSON envelopes are cut to one."
            )}{' '}
            A frame's size counts all of its bytes: an SSE event's field names and blank line, a line's ending.
          </>
        }
      >
        <ChartFrame height={FRAME_SIZES_CHART.height}>
          <BarChart data={frames.bars} margin={MARGIN}>
            <CartesianGrid stroke={p.grid} vertical={false} />
            <XAxis
              dataKey="label"
              {...axisProps(p)}
              interval={0}
              angle={frames.bars.length > 8 ? -30 : 0}
              height={frames.bars.length > 8 ? 40 : 22}
              textAnchor={frames.bars.length > 8 ? 'end' : 'middle'}
            />
            <YAxis {...axisProps(p)} allowDecimals={false} width={40} tickFormatter={formatCompact} />
            <Tooltip
              {...tooltipProps(p)}
              formatter={(value) => [String(value), 'frames']}
              labelFormatter={(label) => `${labelText(label)} bytes`}
            />
            <Bar dataKey="count" isAnimationActive={false}>
              {frames.bars.map((bar) => (
                <Cell key={bar.label} fill={bar.overBudget ? p.barOver : p.bar} />
              ))}
            </Bar>
            {frames.marker && (
              <ReferenceLine
                x={frames.marker.label}
                position={frames.marker.position}
                stroke={p.budget}
                strokeWidth={2}
                strokeDasharray="4 3"
                label={{
                  value: `budget ${stats.budget} B`,
                  position: 'insideTopRight',
                  fill: p.budget,
                  fontSize: FONT,
                }}
              />
            )}
          </BarChart>
        </ChartFrame>
      </ChartCard>

      <ChartCard
        title={OVERHEAD_CHART.title}
        subtitle={`total bytes on the wire per type over the whole session, split into the payload${stats.budgetApplies ? ', the envelope around it and what JSON escaping added' : ' and the envelope around it'}`}
        testId={DIAGNOSTIC_IDS.chartOverhead}
        note={
          overBudget.length > 0 || beyondWire.length > 0 ? (
            <>
              {overBudget.length > 0 && (
                <span className="warn-text">
                  Over budget: {overBudget.map((o) => `${o.label} ×${o.overBudget}`).join(', ')}.{' '}
                </span>
              )}
              {beyondWire.length > 0 && (
                <span data-testid={DIAGNOSTIC_IDS.chartBeyondWire}>
                  More payload than wire bytes: {beyondWire.join(', ')}. An event&apos;s bytes count once, for its first
                  envelope; the others it carries, and a dialect&apos;s own summaries (a message&apos;s usage, the tools
                  a run awaits), have payload but no bytes of their own.
                </span>
              )}
            </>
          ) : undefined
        }
      >
        {overhead.length === 0 ? (
          <div className="chart-empty">No content envelopes.</div>
        ) : (
          <ChartFrame height={overheadHeight}>
            <BarChart data={overhead} layout="vertical" margin={{ ...MARGIN, left: 8 }}>
              <CartesianGrid stroke={p.grid} horizontal={false} />
              <XAxis
                type="number"
                {...axisProps(p)}
                ticks={overheadTicks}
                domain={[0, overheadTicks.at(-1) ?? 0]}
                tickFormatter={(v: number) => formatBinaryBytes(v)}
              />
              <YAxis type="category" dataKey="label" {...axisProps(p)} width={150} interval={0} />
              <Tooltip
                {...tooltipProps(p)}
                formatter={(value, name) => [formatBinaryBytes(Number(value)), String(name)]}
                labelFormatter={(label, payload) => {
                  const row = payload[0]?.payload as (typeof overhead)[number] | undefined;
                  return row
                    ? `${labelText(label)} — ${formatCountOf(row.envelopes, 'envelope')}, wire/payload ×${Number.isFinite(row.ratio) ? row.ratio.toFixed(2) : '∞'}`
                    : labelText(label);
                }}
              />
              <Legend {...legendProps(p)} />
              <Bar dataKey="payload" name="payload" stackId="w" fill={p.payload} isAnimationActive={false} />
              <Bar dataKey="envelope" name="envelope" stackId="w" fill={p.envelope} isAnimationActive={false} />
              {/* What escaping added is measured for the upstream's JSON envelopes only (chunk-stats.ts). */}
              {stats.budgetApplies && (
                <Bar dataKey="escaping" name="JSON escaping" stackId="w" fill={p.escaping} isAnimationActive={false} />
              )}
            </BarChart>
          </ChartFrame>
        )}
      </ChartCard>

      <ChartCard
        title="How full the chunks of chunked payloads are"
        subtitle={
          stats.fullness.chunks === 0
            ? 'no chunked payloads (JSON envelopes only)'
            : `${stats.fullness.chunks} non-last chunks · mean ${(stats.fullness.meanFullness * 100).toFixed(1)}% · min ${(stats.fullness.minFullness * 100).toFixed(1)}%`
        }
        testId={DIAGNOSTIC_IDS.chartFullness}
        note={
          stats.fullness.irregularChunks.length > 0 ? (
            <div className="irregular">
              <span>Not cut by the upstream chunker:</span>
              {stats.fullness.irregularChunks.slice(0, 12).map((c) => (
                <button
                  key={`${c.leg}-${c.envelope}`}
                  type="button"
                  className="link-button mono"
                  data-testid={DIAGNOSTIC_IDS.irregularChunk}
                  title={`${c.type} of ${c.agent.slice(0, 8)}: ${c.deltaBytes} of ${c.maxDeltaBytes} bytes`}
                  onClick={() => onEnvelope(c.envelope)}
                >
                  #{c.envelope} {c.type} {Math.round((c.deltaBytes / c.maxDeltaBytes) * 100)}%
                </button>
              ))}
              {stats.fullness.irregularChunks.length > 12 && (
                <span className="muted">… {stats.fullness.irregularChunks.length - 12} more</span>
              )}
            </div>
          ) : stats.fullness.chunks > 0 ? (
            'Every non-last chunk is full (or short only by the next character): cut by the upstream chunker.'
          ) : undefined
        }
      >
        {stats.fullness.chunks === 0 ? (
          <div className="chart-empty">Nothing to measure: no buffered payload was split over several envelopes.</div>
        ) : (
          <ChartFrame height={110}>
            <BarChart data={fullness} layout="vertical" margin={MARGIN}>
              <CartesianGrid stroke={p.grid} horizontal={false} />
              <XAxis type="number" {...axisProps(p)} allowDecimals={false} tickFormatter={formatCompact} />
              <YAxis type="category" dataKey="name" {...axisProps(p)} width={80} />
              <Tooltip {...tooltipProps(p)} formatter={(value) => [String(value), 'chunks']} />
              <Bar dataKey="value" isAnimationActive={false}>
                {fullness.map((slice) => (
                  <Cell key={slice.name} fill={p[slice.name]} />
                ))}
              </Bar>
            </BarChart>
          </ChartFrame>
        )}
      </ChartCard>

      {networkChunks && (
        <ChartCard
          title="Network chunks vs frames"
          subtitle={`${formatCountOf(stats.frames, 'frame')} · ${stats.splitFrames} split over several chunks · frames per chunk: ${histogramSummaryLine(stats.framesPerChunk, 'count')}`}
          testId={DIAGNOSTIC_IDS.chartChunksFrames}
        >
          <div className="chart-pair">
            <ChartFrame width="50%" height={160}>
              <BarChart data={legs} margin={MARGIN}>
                <CartesianGrid stroke={p.grid} vertical={false} />
                <XAxis dataKey="label" {...axisProps(p)} />
                <YAxis {...axisProps(p)} allowDecimals={false} width={40} tickFormatter={formatCompact} />
                <Tooltip {...tooltipProps(p)} />
                <Legend {...legendProps(p)} />
                <Bar dataKey="chunks" name="network chunks" fill={p.chunks} isAnimationActive={false} />
                <Bar dataKey="frames" name="frames" fill={p.frames} isAnimationActive={false} />
                <Bar dataKey="splitFrames" name="split frames" fill={p.split} isAnimationActive={false} />
              </BarChart>
            </ChartFrame>
            <ChartFrame width="50%" height={160}>
              <BarChart data={perChunk} margin={MARGIN}>
                <CartesianGrid stroke={p.grid} vertical={false} />
                <XAxis
                  dataKey="label"
                  {...axisProps(p)}
                  label={{
                    value: 'frames completed per network chunk',
                    position: 'insideBottom',
                    offset: 0,
                    fill: p.text,
                    fontSize: FONT,
                  }}
                  height={36}
                />
                <YAxis {...axisProps(p)} allowDecimals={false} width={40} tickFormatter={formatCompact} />
                <Tooltip
                  {...tooltipProps(p)}
                  formatter={(value) => [String(value), 'chunks']}
                  labelFormatter={(label) => `frames per chunk: ${labelText(label)}`}
                />
                <Bar dataKey="count" fill={p.chunks} isAnimationActive={false} />
              </BarChart>
            </ChartFrame>
          </div>
        </ChartCard>
      )}

      <ChartCard
        title="Inter-arrival gaps between frames"
        subtitle={timing ? histogramSummaryLine(stats.frameGapMs, 'ms') : undefined}
        testId={DIAGNOSTIC_IDS.chartGaps}
        note={
          timing
            ? 'A long tail is a quiet agent (a slow tool or model call), not necessarily a network problem.'
            : undefined
        }
      >
        {timing ? (
          <ChartFrame height={160}>
            <BarChart data={gaps} margin={MARGIN}>
              <CartesianGrid stroke={p.grid} vertical={false} />
              <XAxis
                dataKey="label"
                {...axisProps(p)}
                interval={0}
                angle={gaps.length > 8 ? -30 : 0}
                height={gaps.length > 8 ? 44 : 22}
                textAnchor={gaps.length > 8 ? 'end' : 'middle'}
              />
              <YAxis {...axisProps(p)} allowDecimals={false} width={40} tickFormatter={formatCompact} />
              <Tooltip {...tooltipProps(p)} formatter={(value) => [String(value), 'gaps']} />
              <Bar dataKey="count" fill={p.bar} isAnimationActive={false} />
            </BarChart>
          </ChartFrame>
        ) : (
          <div className="chart-empty">
            No timing: every frame arrived at once (a file without receive times, or one network read).
          </div>
        )}
      </ChartCard>

      <ChartCard
        title="Time to first envelope"
        subtitle={
          fromRequest
            ? "from the leg's request to its first envelope"
            : "from the leg's first network chunk to its first envelope (the request time is not known)"
        }
        testId={DIAGNOSTIC_IDS.chartFirstEnvelope}
      >
        {legs.length > 1 && legs.some((l) => (l.timeToFirstEnvelope ?? 0) > 0) && (
          <ChartFrame height={Math.max(80, 24 * legs.length + 30)}>
            <BarChart
              data={legs.map((l) => ({ label: l.label, ms: l.timeToFirstEnvelope ?? 0 }))}
              layout="vertical"
              margin={MARGIN}
            >
              <CartesianGrid stroke={p.grid} horizontal={false} />
              <XAxis type="number" {...axisProps(p)} tickFormatter={(v: number) => formatMs(v)} />
              <YAxis type="category" dataKey="label" {...axisProps(p)} width={50} />
              <Tooltip
                {...tooltipProps(p)}
                formatter={(value) => [formatMs(Number(value)), 'time to first envelope']}
              />
              <Bar dataKey="ms" fill={p.bar} isAnimationActive={false} />
            </BarChart>
          </ChartFrame>
        )}
        <table className="ttfe-table">
          <thead>
            <tr>
              <th>leg</th>
              <th>time to first envelope</th>
              <th>chunks</th>
              <th>bytes</th>
              <th>frames</th>
              <th>envelopes</th>
            </tr>
          </thead>
          <tbody>
            {legs.map((leg) => (
              <tr key={leg.label}>
                <td>{leg.label}</td>
                {leg.timeToFirstEnvelope === null ? (
                  <td className="mono" title="Unknown: the session has no receive times">
                    —
                  </td>
                ) : (
                  <td className="mono">{formatMs(leg.timeToFirstEnvelope)}</td>
                )}
                <td className="mono">{leg.chunks}</td>
                <td className="mono">{formatBytes(leg.bytes)}</td>
                <td className="mono">{leg.frames}</td>
                <td className="mono">{leg.envelopes}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ChartCard>
    </div>
  );
}
