/**
 * Child process of `parallel-decode.bench.ts`: decodes FILE (an SSE capture) with THREADS
 * threads in all, as `inspect --workers THREADS` reads it, into a counting session (blocks
 * and findings made and counted, not kept, so a 1 GB stream fits the memory budget), and
 * prints one JSON line: wall time, CPU time of the process and of its main thread, when the
 * first envelope was decoded, peak RSS. THREADS 1 is the one-thread decode.
 */
import { readFileSync } from 'node:fs';
import { createPreparedCursor } from '../src-shared/pipeline/prepared';
import { DEFAULT_CHUNK_BUDGET } from '../src-shared/envelope/budget';
import { openSource } from '../src-main/services/importers';
import { readAhead } from '../src-main/services/parallel/read-ahead';
import { createSpanPool } from '../src-main/services/parallel/span-pool';
import { createCountingSession } from '../src-main/services/recording/counting-session';
import { statCpuMs } from './timing';

/** What the probe prints. */
export interface ParallelProbeResult {
  wallMs: number;
  cpuMs: number;
  mainThreadCpuMs: number;
  firstEnvelopeMs: number;
  peakRss: number;
  envelopes: number;
  blocks: number;
  findings: number;
}

const cpuNow = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU time of this process's main thread alone (Linux: its task's utime + stime, in 10 ms ticks). */
const mainThreadCpu = (): number => statCpuMs(`/proc/self/task/${process.pid}/stat`);

function peakRss(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : process.memoryUsage().rss;
}

async function decode(path: string, threads: number): Promise<ParallelProbeResult> {
  const pool = threads > 1 ? createSpanPool(threads - 1) : undefined;
  // The threads are started before the clock, as a command's pool is by its first large file.
  if (pool) await pool.read(new Uint8Array(1), 0, DEFAULT_CHUNK_BUDGET);
  const cursor = createPreparedCursor();
  let firstEnvelopeMs = -1;
  const start = performance.now();
  const cpuStart = cpuNow();
  const mainStart = mainThreadCpu();
  const session = createCountingSession({ statistics: false, ...(pool ? { prepared: cursor } : {}) });
  const source = await openSource(path);
  for (const leg of source.legs) {
    const decoder = session.startLeg();
    const chunks = pool ? readAhead(leg.chunks, pool, cursor, { budget: DEFAULT_CHUNK_BUDGET }) : leg.chunks;
    for await (const chunk of chunks) {
      decoder.push(chunk.bytes, chunk.receivedAt);
      if (firstEnvelopeMs < 0 && session.envelopeCount() > 0) firstEnvelopeMs = performance.now() - start;
    }
    decoder.end();
  }
  const counted = session.finish();
  const result = {
    wallMs: performance.now() - start,
    cpuMs: cpuNow() - cpuStart,
    mainThreadCpuMs: mainThreadCpu() - mainStart,
    firstEnvelopeMs,
    peakRss: peakRss(),
    envelopes: counted.envelopes,
    blocks: counted.blocks,
    findings: counted.findings.reduce((sum, f) => sum + f.count, 0),
  };
  await pool?.close();
  return result;
}

console.log(JSON.stringify(await decode(process.argv[2] as string, Number(process.argv[3]))));
