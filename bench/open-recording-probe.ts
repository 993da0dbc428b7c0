/**
 * Child process of `session-store-open.bench.ts`. `PATH`: opens the recording through the
 * session service, as the app's session worker does, and prints one JSON line: when the first
 * rows were batched, when the whole file was decoded, the CPU time that took, the process's
 * peak resident memory, how long its chunk statistics then take when asked, then the floor on
 * the same file. `--decode BYTES`: decodes the same stream (`recordedStream`) from memory
 * instead, by the decoder alone and into a session, and prints the CPU time of each.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createDefaultSessionService } from '../src-main/hosts/default-service';
import { sessionKeeping } from './session-store.bench';
import { recordedStream, streamPart, type DecodeResult, type ProbeResult } from './session-store-open.bench';
import { createCountingSession } from '../src-main/services/recording/counting-session';

/** Peak resident set of this process (Linux: VmHWM; elsewhere the largest of the samples). */
function peakRss(sampled: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux.
  }
  return sampled;
}

const cpuNow = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const LF = 0x0a;
const FLOOR_BLOCK = 1024 * 1024;

/**
 * The floor for opening a file: read it once and note where each record (line) starts, in a
 * Uint32Array (the benchmark's files stay under 4 GiB). Returns the record count.
 */
function floor(path: string): number {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const block = new Uint8Array(FLOOR_BLOCK);
    let offsets = new Uint32Array(1 << 16);
    let count = 0;
    for (let position = 0; position < size;) {
      const read = readSync(fd, block, 0, FLOOR_BLOCK, position);
      if (read === 0) break;
      const bytes = block.subarray(0, read);
      for (let lf = bytes.indexOf(LF); lf >= 0; lf = bytes.indexOf(LF, lf + 1)) {
        if (count === offsets.length) {
          const grown = new Uint32Array(count * 2);
          grown.set(offsets);
          offsets = grown;
        }
        offsets[count++] = position + lf + 1;
      }
      position += read;
    }
    return count;
  } finally {
    closeSync(fd);
  }
}

async function open(path: string): Promise<ProbeResult> {
  const service = createDefaultSessionService();
  let firstRowsMs = -1;
  let sampled = 0;
  const sampler = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 50);
  const start = performance.now();
  const cpuStart = cpuNow();
  service.onSessionBatch((batch) => {
    if (firstRowsMs < 0 && batch.total > 0) firstRowsMs = performance.now() - start;
  });
  const opened = await service.openFile({ path });
  let summary = opened;
  while (summary.state === 'connecting' || summary.state === 'streaming' || summary.state === 'loading') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    summary = (await service.getSession({ sessionId: opened.id })).summary;
  }
  const indexedMs = performance.now() - start;
  const cpuMs = cpuNow() - cpuStart;
  clearInterval(sampler);
  const rss = peakRss(sampled);
  // The Diagnostics view's chunk charts: counted when asked (session-statistics.ts), not while decoding.
  const statsStart = performance.now();
  await service.getStats({ sessionId: opened.id });
  const statsMs = performance.now() - statsStart;
  await service.dispose();
  const floorStart = performance.now();
  const floorCpuStart = cpuNow();
  floor(path);
  return {
    firstRowsMs,
    indexedMs,
    cpuMs,
    statsMs,
    peakRss: rss,
    envelopes: summary.envelopes,
    bytes: summary.bytes,
    state: summary.state,
    floorMs: performance.now() - floorStart,
    floorCpuMs: cpuNow() - floorCpuStart,
  };
}

/** CPU time of `run` over the recording's stream, generated before the clock starts. */
function timed(
  bytes: number,
  part: Uint8Array[],
  run: (chunks: Iterable<Uint8Array>) => number,
): { cpuMs: number; envelopes: number } {
  const start = cpuNow();
  const envelopes = run(recordedStream(bytes, part));
  return { cpuMs: cpuNow() - start, envelopes };
}

function decode(bytes: number): DecodeResult {
  const part = streamPart();
  const decoder = timed(bytes, part, (chunks) => {
    const counting = createCountingSession();
    const leg = counting.startLeg();
    let i = 0;
    for (const chunk of chunks) leg.push(chunk, i++);
    leg.end();
    return counting.finish().envelopes;
  });
  const session = timed(bytes, part, (chunks) => {
    const data = sessionKeeping(chunks);
    data.dispose();
    return data.envelopeCount;
  });
  return {
    decoderCpuMs: decoder.cpuMs,
    sessionCpuMs: session.cpuMs,
    envelopes: session.envelopes === decoder.envelopes ? session.envelopes : -1,
  };
}

const args = process.argv.slice(2);
console.log(JSON.stringify(args[0] === '--decode' ? decode(Number(args[1])) : await open(args[0] as string)));
