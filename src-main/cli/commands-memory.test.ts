import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIB, peakOf, writeStream } from './peak-memory';

/**
 * The commands that read a whole file stream it (stream-file.ts), as `inspect` does
 * (inspect-memory.test.ts): the real bin on a generated 96 MiB stream of 3,454 text blocks
 * (690,800 envelopes) stays near the memory of its start. Measured (docs/performance.md):
 * decoded whole, `blocks` peaked at 578 MB and `blocks --json` at 871 MB; streamed, 111 and
 * 113 MB, as for a 24 MiB file. `frames --json`, which held each leg's bytes, 270 MB; streamed,
 * 165 MB (160 MB for 24 MiB: printing 690,800 lines one write each keeps the collector busy).
 * `check --expect 'status == "done"'`, 550 MB decoded whole; streamed, 116 MB. `inspect --filter`,
 * 703 MB decoded whole; streamed (then three readings: the report, then the filter's two passes; two now),
 * 167 MB (119 MB for 24 MiB; the heap after a collection stays at 11 MB: the rest is garbage
 * not yet collected). `frames --filter`, 753 MB; 152 MB. `check` with `some final`, `none
 * finding.severity == "error"` and `every agent: some final`, 694 MB decoded whole (`some final`
 * alone); 166–175 MB, holding the 3,454 envelopes its filters select (`count(type == "text")`,
 * which selects all 690,801, still needs 456 MB).
 */

const LARGE_MB = 96;
let dir: string;
let large: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'commands-memory-'));
  large = join(dir, 'large.sse');
  await writeStream(large, LARGE_MB);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Measured 111–113 MB, whatever the size of the file; the whole decode needed 578–871 MB. */
const BOUND = 160 * MIB;

it(`blocks prints ${LARGE_MB} MiB of blocks in bounded memory`, { timeout: 300_000 }, async () => {
  const run = await peakOf(['blocks', large]);
  expect(run.code).toBe(0);
  expect(run.tail).toMatch(/^#3453 11111111 text complete: "lorem ipsum/m);
  expect(run.peak).toBeLessThan(BOUND);
});

it(`blocks --json prints ${LARGE_MB} MiB of blocks in bounded memory`, { timeout: 300_000 }, async () => {
  const run = await peakOf(['blocks', '--json', large]);
  expect(run.code).toBe(0);
  expect(run.printed).toBeGreaterThan(LARGE_MB * MIB * 0.3);
  expect(run.tail.endsWith('}\n]\n')).toBe(true);
  expect(run.peak).toBeLessThan(BOUND);
});

it(`frames --json prints the events of ${LARGE_MB} MiB in bounded memory`, { timeout: 300_000 }, async () => {
  const run = await peakOf(['frames', '--json', large]);
  expect(run.code).toBe(0);
  expect(run.tail).toMatch(/"leg":0,"end":true,"lastEventId":"","retry":null\}\n$/);
  // Measured 165 MB (270 MB when each leg's bytes were held).
  expect(run.peak).toBeLessThan(210 * MIB);
});

/**
 * A pipe takes writes asynchronously: printed faster than its reader reads, the output piled up
 * in the command's memory (frames --json of a 100 MB file into a pipe: 452–576 MB) until the
 * commands waited for stdout to drain between chunks (CliIo.drained).
 */
it.each([
  [['frames', '--json'], 210 * MIB],
  [['blocks', '--json'], BOUND],
])(`%s waits for a reader that stalls, in bounded memory`, { timeout: 300_000 }, async (command, bound) => {
  const run = await peakOf([...command, large], { stallMs: 4000 });
  expect(run.code).toBe(0);
  expect(run.printed).toBeGreaterThan(LARGE_MB * MIB * 0.3);
  expect(run.peak).toBeLessThan(bound);
});

it(`check of the end status reads ${LARGE_MB} MiB in bounded memory`, { timeout: 300_000 }, async () => {
  const run = await peakOf(['check', '--expect', 'status == "done"', large]);
  expect(run.code).toBe(0);
  expect(run.tail).toContain('690801 envelopes · status done');
  expect(run.tail).toContain('1 passed, 0 failed');
  expect(run.peak).toBeLessThan(BOUND);
});

it(`inspect --filter and frames --filter read ${LARGE_MB} MiB in bounded memory`, { timeout: 300_000 }, async () => {
  const filter = 'block.status == "complete" && seq in [0, 100000, 200000, 300000, 400000, 500000]';
  const inspected = await peakOf(['inspect', '--filter', filter, large]);
  expect(inspected.code).toBe(0);
  expect(inspected.tail).toMatch(/\]: 6 of 690801\n/);
  // Measured 167 MB (703 MB decoded whole).
  expect(inspected.peak).toBeLessThan(210 * MIB);
  const framed = await peakOf(['frames', '--json', '--filter', filter, large]);
  expect(framed.code).toBe(0);
  expect(framed.tail).toMatch(/"end":true,"matched":6\}\n$/);
  // Measured 152 MB (753 MB decoded whole).
  expect(framed.peak).toBeLessThan(210 * MIB);
});

it(
  `check of envelopes reads ${LARGE_MB} MiB holding only the envelopes its filters select`,
  { timeout: 300_000 },
  async () => {
    const run = await peakOf([
      'check',
      '--expect',
      'some final',
      '--expect',
      'none finding.severity == "error"',
      large,
    ]);
    expect(run.code).toBe(0);
    expect(run.tail).toContain('2 passed, 0 failed');
    // Measured 175 MB (694 MB decoded whole).
    expect(run.peak).toBeLessThan(210 * MIB);
  },
);
