import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * What the memory tests of the streamed commands share: a generated stream of any size, and
 * the peak RSS of the real bin run on it in a child process.
 */

const AGENT = '11111111-1111-4111-8111-111111111111';

/** A stream of text blocks of 200 deltas each, `mb` MiB long (whole blocks), ending with [DONE]. */
export async function writeStream(path: string, mb: number): Promise<void> {
  const delta = (final: boolean): string =>
    `data: {"type":"text","agent":"${AGENT}","final":${final},"delta":"${final ? '' : 'lorem ipsum dolor sit amet, consectetur adipiscing '}"}\n\n`;
  const block = Buffer.from(Array.from({ length: 200 }, (_, i) => delta(i === 199)).join(''));
  const out = createWriteStream(path);
  for (let written = 0; written < mb * 1024 * 1024; written += block.length)
    if (!out.write(block)) await once(out, 'drain');
  out.end('data: [DONE]\n\n');
  await once(out, 'finish');
}

export interface PeakRun {
  code: number | null;
  /** The peak RSS in bytes (VmHWM). */
  peak: number;
  /** Bytes printed, and the last `tail` characters printed (the output itself is not kept: it may be the size of the file). */
  printed: number;
  tail: string;
}

/**
 * Runs the bin with `args`; its exit code, peak RSS, and how much it printed. `stallMs`: the
 * reader of its stdout pipe reads nothing for that long first, as a slow consumer does.
 */
export async function peakOf(
  args: readonly string[],
  { tail = 64 * 1024, stallMs = 0 }: { tail?: number; stallMs?: number } = {},
): Promise<PeakRun> {
  const child = spawn(process.execPath, ['bin/stream-inspector.mjs', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = 0;
  let last = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    printed += Buffer.byteLength(text);
    last = (last + text).slice(-tail);
  });
  if (stallMs > 0) {
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), stallMs);
  }
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
  return { code, peak, printed, tail: last };
}

export const MIB = 1024 * 1024;
