import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';

/**
 * `inspect` of a large file streams it: memory does not grow with the file. Two files of the
 * same stream, one four times the other, inspected by the real bin in a child process; its
 * peak RSS (VmHWM) is compared. A decoder that kept every envelope (as `inspect` did) grows by
 * hundreds of bytes per envelope: about 4 × 200 MB more for the larger file.
 */

const AGENT = '11111111-1111-4111-8111-111111111111';
const SMALL_MB = 24;
const LARGE_MB = 4 * SMALL_MB;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspect-memory-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A stream of text blocks of 200 deltas each, `mb` MiB long (whole blocks), ending with [DONE]. */
async function writeStream(path: string, mb: number): Promise<void> {
  const delta = (final: boolean): string =>
    `data: {"type":"text","agent":"${AGENT}","final":${final},"delta":"${final ? '' : 'lorem ipsum dolor sit amet, consectetur adipiscing '}"}\n\n`;
  const block = Buffer.from(Array.from({ length: 200 }, (_, i) => delta(i === 199)).join(''));
  const out = createWriteStream(path);
  for (let written = 0; written < mb * 1024 * 1024; written += block.length)
    if (!out.write(block)) await once(out, 'drain');
  out.end('data: [DONE]\n\n');
  await once(out, 'finish');
}

/** Runs `inspect --json FILE` with the bin; its report and its peak RSS in bytes. */
async function inspectPeak(
  path: string,
): Promise<{ report: { envelopes: number; status: { label: string } }; peak: number }> {
  const child = spawn(process.execPath, ['bin/stream-inspector.mjs', 'inspect', '--json', path], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  let peak = 0;
  // VmHWM is the process's peak so far: the last reading before it exits is its peak.
  const sample = (): void => {
    readFile(`/proc/${child.pid}/status`, 'utf8').then(
      (status) => (peak = Math.max(peak, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024)),
      () => undefined,
    );
  };
  const sampler = setInterval(sample, 20);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(sampler);
  expect(code).toBe(0);
  return { report: JSON.parse(out) as never, peak };
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
    expect(b.peak - a.peak).toBeLessThan(32 * 1024 * 1024);
  },
);
