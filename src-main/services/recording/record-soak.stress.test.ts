import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nestedAgentEvents } from '../../../src-shared/testing/nested-agents';

/**
 * The memory soak (docs/reliability.md, "Memory that does not grow with the stream"): the real
 * `stream-inspector record`, a child process with a small heap, fed an endless loopback stream
 * for SOAK_SECONDS (default 6; `SOAK_SECONDS=60` for the full soak, which prints its figures), must keep recording, and
 * what it retains after a full collection must not grow with what it has recorded; Ctrl-C then
 * stops it within seconds, with its counts. The child's memory is read by scripts/heap-probe.mjs,
 * preloaded into it.
 */

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const SECONDS = Number(process.env['SOAK_SECONDS'] ?? 6);
/** A heap the pre-fix `record` outgrew within seconds (out of memory at 200 MB after ~120 MB of stream). */
const HEAP_MB = 64;

/** Endless streams the server writes, one event batch after another, as fast as the client reads. */
const STREAMS = {
  /** Small complete text blocks of one agent: a delta and its final marker. */
  'small complete blocks': (n: number): string =>
    `data: {"type":"text","agent":"aaaa","final":false,"delta":"block ${n} says hello"}\n\ndata: {"type":"text","agent":"aaaa","final":true,"delta":""}\n\n`,
  /** Each agent a sub-agent of the one before, with one small block: nesting as deep as the stream is long. */
  'nested sub-agents': nestedAgentEvents,
};

let server: Server;
let dir: string;
let sent = 0;
let stream: (n: number) => string;

/** Writes batches of events until the client goes, waiting for the socket to drain. */
function writeForever(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let n = 0;
  const write = (): void => {
    while (!res.destroyed) {
      let batch = '';
      for (let i = 0; i < 100; i++) batch += stream(n++);
      sent += Buffer.byteLength(batch);
      if (!res.write(batch)) break;
    }
    if (!res.destroyed) res.once('drain', write);
  };
  write();
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'record-soak-'));
  sent = 0;
  server = createServer((req, res) => {
    req.resume();
    writeForever(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await rm(dir, { recursive: true, force: true });
});

interface Sample {
  heap: number;
  arrayBuffers: number;
  rss: number;
  /** Bytes the server had sent when the sample arrived. */
  sent: number;
}

describe('the memory soak: record of an endless stream', () => {
  it.each(Object.keys(STREAMS) as (keyof typeof STREAMS)[])(
    'keeps recording %s in flat memory, and Ctrl-C stops it',
    async (name) => {
      stream = STREAMS[name];
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent/run`;
      const child = spawn(
        process.execPath,
        [
          `--max-old-space-size=${HEAP_MB}`,
          '--import',
          join(root, 'scripts/heap-probe.mjs'),
          join(root, 'bin/stream-inspector.mjs'),
          'record',
          url,
          '-o',
          join(dir, 'soak.recording'),
          '--json',
        ],
        { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], env: { ...process.env, HEAP_PROBE_MS: '250' } },
      );
      let stdout = '';
      let stderr = '';
      child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
      child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      const samples: Sample[] = [];
      createInterface({ input: child.stdio[3] as Readable }).on('line', (line) => {
        // Only once the stream flows: start-up (compiling, loading the sources) is not the stream's.
        if (stderr.includes('streaming')) samples.push({ ...(JSON.parse(line) as Omit<Sample, 'sent'>), sent });
      });
      const exited = once(child, 'exit') as Promise<[number | null, string | null]>;

      const streaming = Date.now();
      while (!stderr.includes('streaming') && Date.now() - streaming < 30_000 && child.exitCode === null)
        await new Promise((done) => setTimeout(done, 50));
      await new Promise((done) => setTimeout(done, SECONDS * 1000));
      expect(child.exitCode, `record died while streaming:\n${stderr}`).toBeNull();
      child.kill('SIGINT');
      const stopped = Date.now();
      const [code] = await exited;
      expect(Date.now() - stopped, 'Ctrl-C answered within seconds').toBeLessThan(10_000);
      expect(code, stderr).toBe(0);
      const summary = JSON.parse(stdout) as { state: string; envelopes: number; bytes: number };
      expect(summary.state).toBe('stopped');

      // The second half of the run against its first sample: the stream kept flowing, and
      // memory did not grow with it (the pre-fix `record` kept about two bytes per byte of
      // this stream). Slack: 2 MB, and a twentieth of what was streamed meanwhile.
      const window = samples.slice(Math.floor(samples.length / 2));
      const first = window[0];
      const last = window.at(-1);
      expect(first && last, `samples: ${samples.length}`).toBeTruthy();
      if (!first || !last) return;
      const streamed = last.sent - first.sent;
      const grown = Math.max(...window.map((s) => s.heap)) - first.heap;
      expect(streamed, 'the stream kept flowing').toBeGreaterThan(256 * 1024);
      expect(summary.bytes).toBeGreaterThan(streamed);
      // What waits for the disk is bounded apart (MAX_BACKLOG_BYTES, 8 MiB, in live-recording.ts).
      expect(Math.max(...samples.map((s) => s.arrayBuffers))).toBeLessThan(24 * 1024 * 1024);
      // The long soak says what it measured (docs/reliability.md quotes it).
      if (process.env['SOAK_SECONDS'])
        console.info(
          `${name}: ${summary.envelopes} envelopes, ${summary.bytes} bytes in ${SECONDS} s; heap ${first.heap} → ${last.heap} (peak +${grown}) while ${streamed} bytes streamed; peak RSS ${Math.max(...samples.map((s) => s.rss))}`,
        );
      expect(
        grown,
        `heap ${first.heap} → ${last.heap} bytes (peak ${first.heap + grown}) while ${streamed} bytes streamed`,
      ).toBeLessThan(2 * 1024 * 1024 + streamed / 20);
    },
    SECONDS * 1000 + 60_000,
  );
});
