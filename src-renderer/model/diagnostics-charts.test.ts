import { describe, expect, test } from 'vitest';
import type { ChunkStatistics, HistogramSummary } from '../../src-shared/diagnostics/chunk-stats';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../src-main/testing/fixtures';
import { readProviderFixture } from '../../src-main/testing/provider-streams';
import {
  hasNetworkChunks,
  asChunkStatistics,
  binaryByteTicks,
  bucketLabel,
  budgetMarker,
  formatBinaryBytes,
  frameSizeBars,
  fullnessSlices,
  hasTiming,
  histogramBars,
  histogramSummaryLine,
  legBars,
  overheadBars,
  payloadBeyondWire,
} from './diagnostics-charts';

function statsOf(name: string): ChunkStatistics {
  return decodeBytes(readFixture(name)).stats;
}

function histogram(buckets: [number, number, number][]): HistogramSummary {
  return {
    count: buckets.reduce((n, b) => n + b[2], 0),
    min: 0,
    max: 0,
    mean: 0,
    p50: 0,
    p95: 0,
    buckets: buckets.map(([lo, hi, count]) => ({ lo, hi, count })),
  };
}

describe('asChunkStatistics', () => {
  test('accepts what the decoder produces, refuses other shapes', () => {
    const stats = statsOf('example_1.json.sse');
    expect(asChunkStatistics(JSON.parse(JSON.stringify(stats)))).not.toBeNull();
    expect(asChunkStatistics(null)).toBeNull();
    expect(asChunkStatistics({ budget: 2048 })).toBeNull();
    expect(asChunkStatistics({ ...stats, frameBytes: { count: 1 } })).toBeNull();
    expect(asChunkStatistics({ ...stats, budgetApplies: undefined })).toBeNull();
  });
});

describe('bucket labels', () => {
  test.each([
    [{ lo: 0, hi: 1 }, 'bytes', '0'],
    [{ lo: 1, hi: 2 }, 'bytes', '1'],
    [{ lo: 2, hi: 4 }, 'bytes', '2–3'],
    [{ lo: 512, hi: 1024 }, 'bytes', '512–1023'],
    [{ lo: 1024, hi: 2048 }, 'bytes', '1K–2K'],
    [{ lo: 2048, hi: 4096 }, 'bytes', '2K–4K'],
    [{ lo: 1048576, hi: 2097152 }, 'bytes', '1M–2M'],
    [{ lo: 2 ** 46, hi: Infinity }, 'bytes', '≥ 65536G'],
    [{ lo: 0, hi: 1 }, 'ms', '0–1 ms'],
    [{ lo: 512, hi: 1024 }, 'ms', '512–1024 ms'],
    [{ lo: 1024, hi: 2048 }, 'ms', '1–2 s'],
    [{ lo: 4096, hi: Infinity }, 'ms', '≥ 4.1 s'],
    [{ lo: 4, hi: 8 }, 'count', '4–7'],
  ] as const)('%j %s → %s', (bucket, unit, label) => {
    expect(bucketLabel(bucket, unit)).toBe(label);
  });

  test('formatBinaryBytes', () => {
    expect([
      formatBinaryBytes(12),
      formatBinaryBytes(2048),
      formatBinaryBytes(1536),
      formatBinaryBytes(3 * 1024 * 1024),
    ]).toEqual(['12 B', '2 KiB', '1.5 KiB', '3 MiB']);
  });

  test('binaryByteTicks: a byte axis ticks at round binary sizes, not at 3.9 KiB', () => {
    // 7.5 KiB at most: the chart library's own ticks were 2,000, 4,000… ("3.9 KiB", "5.9 KiB").
    expect(binaryByteTicks(7680).map(formatBinaryBytes)).toEqual(['0 B', '2 KiB', '4 KiB', '6 KiB', '8 KiB']);
    expect(binaryByteTicks(1126).map(formatBinaryBytes)).toEqual(['0 B', '512 B', '1 KiB', '1.5 KiB']);
    expect(binaryByteTicks(600)).toEqual([0, 256, 512, 768]);
  });

  test('binaryByteTicks: an axis with nothing on it has one tick', () => {
    expect([binaryByteTicks(0), binaryByteTicks(Number.NaN)]).toEqual([[0], [0]]);
    expect(binaryByteTicks(1)).toEqual([0, 1]);
  });
});

describe('the budget line', () => {
  test('sits at the left edge of the bucket the budget starts', () => {
    const bars = histogramBars(
      histogram([
        [1024, 2048, 3],
        [2048, 4096, 1],
      ]),
      'bytes',
      2048,
    );
    expect(budgetMarker(bars, 2048)).toEqual({ label: '2K–4K', position: 'start' });
    expect(bars.map((b) => b.overBudget)).toEqual([false, true]);
  });

  test('sits inside a bucket when the budget is not a power of two', () => {
    const bars = histogramBars(histogram([[1024, 2048, 3]]), 'bytes', 1500);
    expect(budgetMarker(bars, 1500)).toEqual({ label: '1K–2K', position: 'middle' });
  });

  test('small frames: the chart is extended with empty buckets so the line is still drawn', () => {
    const stats = statsOf('example_1.json.sse');
    const { bars, marker } = frameSizeBars({ ...stats, frameBytes: histogram([[64, 128, 5]]) });
    expect(bars.map((b) => [b.label, b.count])).toEqual([
      ['64–127', 5],
      ['128–255', 0],
      ['256–511', 0],
      ['512–1023', 0],
      ['1K–2K', 0],
      ['2K–4K', 0],
    ]);
    expect(marker).toEqual({ label: '2K–4K', position: 'start' });
  });

  test('a session no dialect of which is chunked against the budget has no line and no bar over it', () => {
    const stats = statsOf('frontend_tools_chunked.json.sse');
    const { bars, marker } = frameSizeBars({ ...stats, budgetApplies: false });
    expect(marker).toBeNull();
    expect(bars.some((b) => b.overBudget)).toBe(false);
    expect(bars.map((b) => b.count)).toEqual(stats.frameBytes.buckets.map((b) => b.count));
  });

  test('frontend_tools_chunked.json: frames over the budget are flagged', () => {
    const { bars, marker } = frameSizeBars(statsOf('frontend_tools_chunked.json.sse'));
    expect(marker?.position).toBe('start');
    expect(bars.filter((b) => b.overBudget).reduce((n, b) => n + b.count, 0)).toBeGreaterThan(0);
  });
});

describe('overheadBars', () => {
  test('frontend_tools_chunked.json: payload, envelope and escaping add up to the wire bytes', () => {
    const stats = statsOf('frontend_tools_chunked.json.sse');
    const bars = overheadBars(stats.byType);
    for (const bar of bars) {
      const type = stats.byType.find((t) => t.type === bar.type);
      expect(bar.payload + bar.envelope + bar.escaping).toBe(Math.max(type?.wireBytes ?? 0, type?.payloadBytes ?? 0));
    }
    expect(bars.find((b) => b.type === 'tool_call')?.overBudget).toBe(2);
    expect(bars.find((b) => b.type === 'awaiting_frontend_tools')?.overBudget).toBe(2);
    // Largest wire share first.
    const wire = bars.map((b) => b.payload + b.envelope + b.escaping);
    expect([...wire].sort((a, b) => b - a)).toEqual(wire);
  });

  test('mixed dialects name the dialect', () => {
    const base = { envelopes: 1, wireBytes: 10, payloadBytes: 5, overheadBytes: 5, overBudget: 0 };
    const bars = overheadBars([
      { ...base, dialect: 'json', type: 'text' },
      { ...base, dialect: 'xml', type: 'text' },
    ]);
    expect(bars.map((b) => b.label).sort()).toEqual(['text (json)', 'text (xml)']);
  });
});

describe('payloadBeyondWire', () => {
  test("the upstream agent's envelopes, one per event: every payload is within its wire bytes", () => {
    expect(payloadBeyondWire(statsOf('frontend_tools_chunked.json.sse').byType)).toEqual([]);
  });

  test("a v4 data stream: the tools the run awaits and the message summary are the dialect's own JSON, on no wire", () => {
    const stats = decodeBytes(readProviderFixture('ai-sdk-ui/client-tool.txt')).stats;
    expect(payloadBeyondWire(stats.byType).sort()).toEqual(['awaiting_frontend_tools', 'message']);
  });
});

describe('fullness, legs, summaries', () => {
  test('frontend_tools_chunked.json: four full chunks', () => {
    expect(fullnessSlices(statsOf('frontend_tools_chunked.json.sse'))).toEqual([
      { name: 'full', value: 4 },
      { name: 'underfull', value: 0 },
      { name: 'overfull', value: 0 },
    ]);
  });

  test('legBars carries chunks, frames and time to first envelope per leg', () => {
    const stats = statsOf('example_1.json.sse');
    const [leg] = legBars(stats);
    expect(leg).toMatchObject({ label: 'leg 0', frames: stats.frames, chunks: 1, from: 'first chunk' });
  });

  test('regression: a file without receive times said its time to first envelope was 0 ms — it is unknown', () => {
    const stats = statsOf('example_1.json.sse');
    expect(hasTiming(stats)).toBe(false);
    expect(stats.legs[0]?.timeToFirstEnvelope).toBe(0);
    expect(legBars(stats)[0]?.timeToFirstEnvelope).toBeNull();
    // Timed, a first envelope in the first read is a measured 0 ms.
    const timed = { ...stats, frameGapMs: { ...stats.frameGapMs, count: 2, max: 12 } };
    expect(legBars(timed)[0]?.timeToFirstEnvelope).toBe(0);
  });

  test('regression: time to first envelope counted from the first chunk — it counts from the request when the leg start is known', () => {
    const stats = statsOf('example_1.json.sse');
    const timed = {
      ...stats,
      legs: stats.legs.map((l) => ({ ...l, firstChunkAt: 10_300, firstEnvelopeAt: 10_320, timeToFirstEnvelope: 20 })),
    };
    expect(legBars(timed, [10_000])[0]).toMatchObject({ timeToFirstEnvelope: 320, from: 'request' });
    // A start on another clock (an imported file) or unknown: from the first chunk.
    expect(legBars(timed, [99_999_999])[0]).toMatchObject({ timeToFirstEnvelope: 20, from: 'first chunk' });
    expect(legBars(timed, [])[0]).toMatchObject({ timeToFirstEnvelope: 20, from: 'first chunk' });
  });

  test('histogramSummaryLine and hasTiming', () => {
    expect(histogramSummaryLine({ count: 0, min: 0, max: 0, mean: 0, p50: 0, p95: 0, buckets: [] }, 'bytes')).toBe(
      'none',
    );
    expect(
      histogramSummaryLine({ count: 3, min: 10, max: 3000, mean: 100, p50: 50, p95: 2048, buckets: [] }, 'bytes'),
    ).toBe('n 3 · min 10 B · p50 50 B · p95 2 KiB · max 2.9 KiB');
    const stats = statsOf('example_1.json.sse');
    expect(hasTiming(stats)).toBe(false);
    expect(hasTiming({ ...stats, frameGapMs: { ...stats.frameGapMs, count: 2, max: 12 } })).toBe(true);
  });
});

describe('hasNetworkChunks', () => {
  const live = { id: 'l', source: { kind: 'live' as const, method: 'GET', url: 'http://x' } };
  const capture = { id: 'c', source: { kind: 'file' as const, path: '/c.sse', importer: 'sse' } };
  const recording = { id: 'r', source: { kind: 'file' as const, path: '/r.recording', importer: 'recording' } };
  const replayOf = (id: string, of: string) => ({ id, source: { kind: 'replay' as const, of } });

  test('live sessions and recordings have network chunks; other files do not', () => {
    expect([live, capture, recording].map((s) => hasNetworkChunks(s, []))).toEqual([true, false, true]);
  });

  test('regression: a replay of a capture showed the chunks-vs-frames chart — a replay has its source’s kind of chunks', () => {
    const list = [capture, recording, replayOf('rc', 'c'), replayOf('rr', 'r'), replayOf('rrc', 'rc')];
    expect(
      ['rc', 'rr', 'rrc'].map((id) =>
        hasNetworkChunks(
          list.find((s) => s.id === id)!,
          list,
        ),
      ),
    ).toEqual([false, true, false]);
  });

  test('a replay whose source is closed, or a cycle, ends the walk', () => {
    expect(hasNetworkChunks(replayOf('x', 'gone'), [])).toBe(true);
    const loop = [replayOf('a', 'b'), replayOf('b', 'a')];
    expect(typeof hasNetworkChunks(loop[0]!, loop)).toBe('boolean');
  });
});
