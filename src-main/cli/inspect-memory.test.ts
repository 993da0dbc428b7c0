import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIB, peakOf, writeStream } from './peak-memory';

/**
 * `inspect` of a large file streams it: memory does not grow with the file. Two files of the
 * same stream, one four times the other, inspected by the real bin in a child process; its
 * peak RSS (VmHWM) is compared. A decoder that kept every envelope (as `inspect` did) grows by
 * hundreds of bytes per envelope: about 4 × 200 MB more for the larger file.
 */

const SMALL_MB = 24;
const LARGE_MB = 4 * SMALL_MB;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspect-memory-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `inspect --json FILE` with the bin; its report and its peak RSS in bytes. */
async function inspectPeak(
  path: string,
): Promise<{ report: { envelopes: number; status: { label: string } }; peak: number }> {
  const run = await peakOf(['inspect', '--json', path], { tail: Infinity });
  expect(run.code).toBe(0);
  return { report: JSON.parse(run.tail) as never, peak: run.peak };
}

it(
  `inspect streams a large file: peak RSS of ${LARGE_MB} MiB within a few MiB of ${SMALL_MB} MiB's`,
  { timeout: 300_000 },
  async () => {
    const small = join(dir, 'small.sse');
    const large = join(dir, 'large.sse');
    await writeStream(small, SMALL_MB);
    await writeStream(large, LARGE_MB);
    const a = await inspectPeak(small);
    const b = await inspectPeak(large);
    expect(b.report.envelopes).toBeGreaterThan(3.9 * a.report.envelopes);
    expect(b.report.status.label).toBe('done');
    // What may grow: one line of the report per block (tens of bytes each).
    expect(b.peak - a.peak).toBeLessThan(32 * MIB);
  },
);
