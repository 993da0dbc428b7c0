/** Window over which a status line's rates are measured. */
const RATE_WINDOW_MS = 1000;

interface Sample {
  t: number;
  bytes: number;
  envelopes: number;
}

export interface Rates {
  bytesPerSecond: number;
  envelopesPerSecond: number;
}

/**
 * Bytes and envelopes per second over about the last second, from running totals sampled on a
 * tick: the live status line and the progress bars of long tasks.
 */
export function createRateWindow(): { sample(t: number, bytes: number, envelopes: number): Rates } {
  const samples: Sample[] = [];
  return {
    sample(t, bytes, envelopes) {
      samples.push({ t, bytes, envelopes });
      while (samples.length > 2 && t - (samples[1] as Sample).t >= RATE_WINDOW_MS) samples.shift();
      const oldest = samples[0] as Sample;
      const span = (t - oldest.t) / 1000;
      return {
        envelopesPerSecond: span > 0 ? Math.max(0, (envelopes - oldest.envelopes) / span) : 0,
        bytesPerSecond: span > 0 ? Math.max(0, (bytes - oldest.bytes) / span) : 0,
      };
    },
  };
}
