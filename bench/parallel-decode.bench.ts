/**
 * Every core on a big recording: a large JSON envelope stream decoded whole (blocks and
 * findings) by one thread, and by two with one thread reading spans ahead
 * (src-main/services/parallel), each run in a process of its own, alternated round by round.
 * The floor is the one-thread decode measured in the same run: the scaling is its time over
 * the threads' time.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParallelProbeResult } from './parallel-decode-probe';
import type { BenchOptions, BenchTable } from './run';
import { recordedStream } from './session-store-open.bench';
import { clearStreamCache, generateStream, networkChunks, type StreamProfile } from './streams';

const MB = 1024 * 1024;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const THREADS = [1, 2] as const;

/** The budgets of a 100 MB and a 1 GB stream (issue 26 §3). */
const TARGETS: Record<number, { wholeMs: number; firstMs?: number; rss?: number }> = {
  100: { wholeMs: 3000, firstMs: 500 },
  1024: { wholeMs: 15_000, rss: 600 * MB },
};

/** A 32 MB json stream of the profile repeated to `bytes` bytes, written without holding it whole. */
function writeStream(path: string, bytes: number, profile: StreamProfile): void {
  const part = networkChunks(generateStream('json', 32 * MB, profile));
  clearStreamCache();
  const fd = openSync(path, 'w');
  try {
    for (const chunk of recordedStream(bytes, part)) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

function probe(path: string, threads: number): ParallelProbeResult {
  const out = execFileSync(
    process.execPath,
    [join(ROOT, 'bin/run-ts.mjs'), join(ROOT, 'bench/parallel-decode-probe.ts'), path, String(threads)],
    { encoding: 'utf8', maxBuffer: 16 * MB },
  );
  return JSON.parse(out.trim().split('\n').at(-1) as string) as ParallelProbeResult;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function measure(sizeMb: number, profile: StreamProfile, rounds: number): BenchTable {
  const dir = mkdtempSync(join(tmpdir(), 'stream-inspector-parallel-'));
  try {
    const path = join(dir, 'large.sse');
    writeStream(path, sizeMb * MB, profile);
    const runs = new Map<number, ParallelProbeResult[]>(THREADS.map((t) => [t, []]));
    for (let round = 0; round < rounds; round++) for (const t of THREADS) runs.get(t)?.push(probe(path, t));
    const s = (ms: number): string => (ms / 1000).toFixed(2);
    const oneThread = median((runs.get(1) ?? []).map((r) => r.wallMs));
    const rows = THREADS.map((t) => {
      const results = runs.get(t) ?? [];
      const wall = median(results.map((r) => r.wallMs));
      const last = results.at(-1) as ParallelProbeResult;
      return [
        t,
        `${s(wall)} (${s(Math.min(...results.map((r) => r.wallMs)))}–${s(Math.max(...results.map((r) => r.wallMs)))})`,
        s(median(results.map((r) => r.cpuMs))),
        s(median(results.map((r) => r.mainThreadCpuMs))),
        (oneThread / wall).toFixed(2),
        Math.round(median(results.map((r) => r.firstEnvelopeMs))),
        Math.round(Math.max(...results.map((r) => r.peakRss)) / MB),
        last.envelopes,
        `${last.blocks} / ${last.findings}`,
      ];
    });
    const same = THREADS.every((t) =>
      (runs.get(t) ?? []).every(
        (r) => r.envelopes === runs.get(1)?.[0]?.envelopes && r.findings === runs.get(1)?.[0]?.findings,
      ),
    );
    const target = TARGETS[sizeMb];
    const best = median((runs.get(2) ?? []).map((r) => r.wallMs));
    const met = (ok: boolean): string => (ok ? 'met' : 'MISSED');
    const notes = [
      `scaling: ${(oneThread / best).toFixed(2)}× with 2 threads against 1 (wall, medians of ${rounds} rounds each, alternated)`,
      `main thread CPU: what the ordered pass costs; the rest of the CPU is the span threads and the garbage collector's`,
      same ? 'every run decoded the same envelopes and findings' : 'RUNS DIFFER in envelopes or findings',
    ];
    if (target) {
      notes.push(
        `whole in ${s(best)} s with 2 threads (target <= ${target.wholeMs / 1000} s: ${met(best <= target.wholeMs)})`,
      );
      const first = median((runs.get(2) ?? []).map((r) => r.firstEnvelopeMs));
      if (target.firstMs !== undefined)
        notes.push(
          `first envelope ${Math.round(first)} ms (target <= ${target.firstMs} ms: ${met(first <= target.firstMs)})`,
        );
      const rss = Math.max(...(runs.get(2) ?? []).map((r) => r.peakRss));
      if (target.rss !== undefined)
        notes.push(`peak RSS ${Math.round(rss / MB)} MB (target <= ${target.rss / MB} MB: ${met(rss <= target.rss)})`);
    }
    return {
      title: `Decoding a ${sizeMb} MB JSON envelope stream (${profile}) whole with 1 and 2 threads (a process each)`,
      columns: [
        'threads',
        'wall s (min–max)',
        'CPU s',
        'main thread CPU s',
        'speed-up',
        'first envelope ms',
        'peak RSS MB',
        'envelopes',
        'blocks / findings',
      ],
      rows,
      notes,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function run({ quick }: BenchOptions): BenchTable[] {
  return quick
    ? [measure(32, 'deltas', 2), measure(32, 'mixed', 2)]
    : [measure(100, 'deltas', 3), measure(100, 'mixed', 3), measure(1024, 'deltas', 1)];
}
