import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSource } from '../importers';
import type { FlushAck } from './recorder';

/**
 * The crash guarantee, tested for real: a child process records a live SSE stream from a
 * loopback server and is killed with SIGKILL mid-stream. Reopening the file must give back
 * every chunk the recorder had acknowledged as written, byte for byte, and a torn last line
 * must be reported, not fatal.
 */

const here = dirname(fileURLToPath(import.meta.url));
const runTs = resolve(here, '../../../bin/run-ts.mjs');
const child = join(here, 'testing/record-child.ts');

let dir: string;
let server: Server;
let sent: Buffer[];
let url: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recorder-kill-'));
  sent = [];
  // An agent that never stops talking: an event every few ms, with multi-byte text.
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream', 'set-cookie': 'sid=CANARY-cookie' });
    let n = 0;
    const timer = setInterval(() => {
      const event = Buffer.from(
        `data: {"type":"text","agent":"a","final":false,"delta":"chunk ${n++} é€😀 ${'x'.repeat(n % 50)}"}\n\n`,
      );
      sent.push(event);
      res.write(event);
    }, 3);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent/run`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await rm(dir, { recursive: true, force: true });
});

interface ChildReport {
  ack?: FlushAck;
  torn?: { written: number; of: number };
}

/** Runs the child until `stop` says so, then SIGKILLs it; returns the last acknowledgement. */
async function recordUntilKilled(
  file: string,
  stop: (report: ChildReport, lastAck: FlushAck | null) => boolean,
  tearAfter?: number,
) {
  const args = [runTs, child, url, file, ...(tearAfter !== undefined ? [String(tearAfter)] : [])];
  const proc: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((done) => proc.on('exit', (_code, signal) => done(signal)));
  let lastAck: FlushAck | null = null;
  let torn: ChildReport['torn'];
  for await (const line of createInterface({ input: proc.stdout as NodeJS.ReadableStream })) {
    const report = JSON.parse(line) as ChildReport;
    if (report.ack) lastAck = report.ack;
    if (report.torn) torn = report.torn;
    if (stop(report, lastAck)) {
      proc.kill('SIGKILL');
      break;
    }
  }
  const signal = await exited;
  expect(signal, stderr).toBe('SIGKILL');
  return { lastAck, torn };
}

async function readBack(file: string) {
  const source = await openSource(file);
  const chunks: Buffer[] = [];
  for await (const chunk of source.legs[0]?.chunks ?? []) chunks.push(Buffer.from(chunk.bytes));
  return { source, chunks, stream: Buffer.concat(chunks) };
}

describe('recorder killed with SIGKILL', () => {
  it('loses nothing it acknowledged and reports the torn last line', async () => {
    const file = join(dir, 'killed.recording');
    // Writes after the fifth are torn in half and never finish: the kill lands mid-record.
    const { lastAck, torn } = await recordUntilKilled(file, (report) => report.torn !== undefined, 5);
    expect(torn).toBeDefined();
    expect(lastAck?.chunks).toBeGreaterThan(0);
    const onDisk = await readFile(file);
    // At least what was acknowledged plus the torn half-record; a flush may still land between
    // the child's last report and the kill, which only adds complete records.
    expect(onDisk.length).toBeGreaterThanOrEqual((lastAck?.bytes ?? 0) + (torn?.written ?? 0));

    const { source, chunks, stream } = await readBack(file);
    // Every acknowledged chunk is back, and the bytes are exactly what the server sent, in order.
    expect(chunks.length).toBeGreaterThanOrEqual(lastAck?.chunks ?? Infinity);
    expect(stream.equals(Buffer.concat(sent).subarray(0, stream.length))).toBe(true);
    expect(source.diagnostics.map((d) => d.rule)).toEqual(
      expect.arrayContaining(['recording.torn-tail', 'recording.unfinished-leg']),
    );
    const tornTail = source.diagnostics.find((d) => d.rule === 'recording.torn-tail');
    expect(tornTail?.at.fileOffset).toBeGreaterThanOrEqual(lastAck?.bytes ?? Infinity);
    expect(tornTail?.at.fileOffset).toBeLessThan(onDisk.length);
    expect(source.diagnostics.filter((d) => d.rule === 'recording.damaged-line')).toEqual([]);
    // The request header's secret never reached the disk, nor the response's cookie.
    expect(onDisk.includes('CANARY')).toBe(false);
  });

  it('loses nothing acknowledged when killed at an arbitrary moment', async () => {
    const file = join(dir, 'killed-anywhere.recording');
    const { lastAck } = await recordUntilKilled(file, (_report, ack) => (ack?.chunks ?? 0) >= 20);
    const { source, chunks, stream } = await readBack(file);
    expect(chunks.length).toBeGreaterThanOrEqual(lastAck?.chunks ?? Infinity);
    expect(stream.equals(Buffer.concat(sent).subarray(0, stream.length))).toBe(true);
    expect(source.legs[0]?.outcome).toBeUndefined();
    expect(source.diagnostics.filter((d) => d.rule === 'recording.damaged-line')).toEqual([]);
  });
});
