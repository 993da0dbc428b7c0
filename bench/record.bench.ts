/**
 * Recording a long live stream: `stream-inspector record` (the bundle, a new process as a user
 * runs it) against a loopback server that streams a generated mixed json stream (bench/streams.ts)
 * as fast as the recorder reads it. Measured: the child's peak RSS (VmHWM of /proc/PID/status,
 * polled while it runs) and MB/s from request to exit; checked: every byte of the stream is in
 * the recording, and the counts it prints are the stream's. Target: 1 GiB within 400 MB of RSS.
 * --quick: 16 and 64 MiB; the full run 64 MiB and 1 GiB.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSource } from '../src-main/services/importers';
import type { BenchOptions, BenchTable } from './run';
import { clearStreamCache, generateStream } from './streams';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/stream-inspector.mjs');
const MIB = 1024 * 1024;
const TARGET_RSS_MB = 400;
const DONE = new TextEncoder().encode('data: [DONE]\n\n');

/** Writes `stream` in 64 KB pieces, waiting whenever the socket's buffer is full. */
async function writeStream(res: ServerResponse, stream: Uint8Array): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (let at = 0; at < stream.length && !res.destroyed; at += 64 * 1024) {
    if (!res.write(stream.subarray(at, at + 64 * 1024))) await once(res, 'drain');
  }
  res.end(DONE);
}

/** Peak resident memory of a live process in bytes (0 once it has exited). */
function peakRss(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

interface Recorded {
  ms: number;
  peakRss: number;
  summary: { state: string; bytes: number; envelopes: number; end: { label: string }; findings: unknown[] };
  onDisk: number;
}

async function recordOnce(stream: Uint8Array, dir: string, name: string): Promise<Recorded> {
  const server = createServer((req, res) => {
    req.resume();
    void writeStream(res, stream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent/run`;
  const file = join(dir, `${name}.recording`);
  const start = performance.now();
  const child = spawn(process.execPath, [BIN, 'record', url, '-o', file, '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, peakRss(child.pid ?? 0))), 20);
  const [code] = (await once(child, 'exit')) as [number | null];
  const ms = performance.now() - start;
  clearInterval(poll);
  server.close();
  if (code !== 0 && code !== 1) throw new Error(`record exited with ${code}`);
  // Every byte on disk: the recording's chunks, read back, add up to the stream.
  let onDisk = 0;
  for (const leg of (await openSource(file)).legs) for await (const chunk of leg.chunks) onDisk += chunk.bytes.length;
  await rm(file);
  return { ms, peakRss: peak, summary: JSON.parse(out) as Recorded['summary'], onDisk };
}

export async function run({ quick }: BenchOptions): Promise<BenchTable[]> {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')]);
  const dir = await mkdtemp(join(tmpdir(), 'record-bench-'));
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  try {
    for (const size of quick ? [16 * MIB, 64 * MIB] : [64 * MIB, 1024 * MIB]) {
      const stream = generateStream('json', size, 'mixed');
      const r = await recordOnce(stream, dir, String(size));
      const total = stream.length + DONE.length;
      clearStreamCache();
      const mb = total / 1e6;
      rows.push([
        `${size / MIB} MiB`,
        (r.ms / 1000).toFixed(1),
        (mb / (r.ms / 1000)).toFixed(1),
        (r.peakRss / 1e6).toFixed(0),
        r.summary.envelopes,
        r.summary.findings.length,
        r.summary.end.label,
        r.onDisk === total && r.summary.bytes === total ? 'yes' : `NO (${r.onDisk} of ${total})`,
      ]);
      if (size >= 1024 * MIB)
        notes.push(
          `1 GiB: peak RSS ${(r.peakRss / 1e6).toFixed(0)} MB (target <= ${TARGET_RSS_MB} MB: ${r.peakRss / 1e6 <= TARGET_RSS_MB ? 'met' : 'MISSED'})`,
        );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (quick)
    notes.push(
      `The ${TARGET_RSS_MB} MB target is for 1 GiB: run without --quick. Peak RSS should not grow with the size.`,
    );
  return [
    {
      title: 'record of a live json stream (mixed profile) from a loopback server, bundle, one process per size',
      columns: ['stream', 's', 'MB/s', 'peak RSS MB', 'envelopes', 'rules found', 'end status', 'every byte on disk'],
      rows,
      notes,
    },
  ];
}
