/**
 * A histogram over fixed power-of-two buckets: constant memory however many values it sees.
 * Bucket 0 holds [0, 1); bucket k ≥ 1 holds [2^(k-1), 2^k); the last bucket is open-ended.
 * Negative values (a clock that went backwards) count in bucket 0 but keep their true min.
 */
const BUCKETS = 48;

export interface HistogramBucket {
  /** Inclusive lower bound. */
  lo: number;
  /** Exclusive upper bound (Infinity for the last bucket). */
  hi: number;
  count: number;
}

/** A histogram as plain data: what crosses to the renderer and the CLI. */
export interface HistogramSummary {
  count: number;
  /** 0 when count is 0, like mean, p50 and p95. */
  min: number;
  max: number;
  mean: number;
  /**
   * Percentiles estimated from the buckets (linear inside the bucket holding the rank,
   * clamped to [min, max]): exact to within the bucket's factor of two.
   */
  p50: number;
  p95: number;
  /** Every bucket from the lowest to the highest non-empty one, empty ones included. */
  buckets: HistogramBucket[];
}

export interface Log2Histogram {
  add(value: number, times?: number): void;
  summary(): HistogramSummary;
  /** An independent copy (to summarise with values still pending, without keeping them). */
  clone(): Log2Histogram;
}

function bucketOf(value: number): number {
  if (!(value >= 1)) return 0;
  // Sizes and counts are small integers: their bit length is the bucket, without a logarithm.
  if (value <= 0x7fffffff && (value | 0) === value) return 32 - Math.clz32(value);
  return Math.min(BUCKETS - 1, Math.floor(Math.log2(value)) + 1);
}

function lowerBound(bucket: number): number {
  return bucket === 0 ? 0 : 2 ** (bucket - 1);
}

function upperBound(bucket: number): number {
  return bucket === BUCKETS - 1 ? Infinity : 2 ** bucket;
}

interface HistogramState {
  counts: number[];
  count: number;
  sum: number;
  min: number;
  max: number;
}

export function createLog2Histogram(): Log2Histogram {
  return fromState({ counts: new Array<number>(BUCKETS).fill(0), count: 0, sum: 0, min: Infinity, max: -Infinity });
}

function fromState(state: HistogramState): Log2Histogram {
  const { counts } = state;
  let { count, sum, min, max } = state;

  function percentile(q: number): number {
    const rank = Math.max(1, Math.ceil(q * count));
    let seen = 0;
    for (let b = 0; b < BUCKETS; b++) {
      const inBucket = counts[b] ?? 0;
      if (seen + inBucket >= rank) {
        const lo = Math.max(lowerBound(b), min);
        const hi = Math.min(upperBound(b), max);
        const estimate = lo + ((rank - seen) / inBucket) * (hi - lo);
        return Math.min(max, Math.max(min, estimate));
      }
      seen += inBucket;
    }
    return max;
  }

  return {
    add(value, times = 1) {
      if (times <= 0 || Number.isNaN(value)) return;
      const b = bucketOf(value);
      counts[b] = (counts[b] ?? 0) + times;
      count += times;
      sum += value * times;
      if (value < min) min = value;
      if (value > max) max = value;
    },
    summary() {
      if (count === 0) return { count: 0, min: 0, max: 0, mean: 0, p50: 0, p95: 0, buckets: [] };
      const first = counts.findIndex((c) => c > 0);
      const last = BUCKETS - 1 - [...counts].reverse().findIndex((c) => c > 0);
      const buckets: HistogramBucket[] = [];
      for (let b = first; b <= last; b++) buckets.push({ lo: lowerBound(b), hi: upperBound(b), count: counts[b] ?? 0 });
      return { count, min, max, mean: sum / count, p50: percentile(0.5), p95: percentile(0.95), buckets };
    },
    clone() {
      return fromState({ counts: [...counts], count, sum, min, max });
    },
  };
}
