import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SSE_HEADERS, sleep, startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';
import { buildRequest } from '../connection/request-spec';
import { openSource } from '../importers';
import { MAX_BACKLOG_BYTES, startLiveRecording } from './live-recording';
import { openFileSink } from './recorder';

let dir: string;
let server: LoopbackServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'live-recording-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function bytesInRecording(path: string): Promise<number> {
  let total = 0;
  for (const leg of (await openSource(path)).legs) for await (const chunk of leg.chunks) total += chunk.bytes.length;
  return total;
}

describe('a live recording', () => {
  it('holds the stream back while the disk is behind, and loses nothing', async () => {
    // Mostly an SSE comment, which the decoder skips quickly: the disk, not decoding, is what holds the stream back.
    const event = (n: number): string =>
      `: ${'x'.repeat(64 * 1024)}\ndata: {"type":"text","agent":"a","final":false,"delta":"${n} é"}\n\n`;
    const END = 'data: {"type":"text","agent":"a","final":true,"delta":""}\n\ndata: [DONE]\n\n';
    const total = 48 * 1024 * 1024;
    let sent = 0;
    let events = 0;
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      while (sent < total && !res.destroyed) {
        let part = '';
        for (let i = 0; i < 4; i++) part += event(events++);
        sent += Buffer.byteLength(part);
        if (!res.write(part)) await new Promise((resolve) => res.once('drain', resolve));
      }
      res.end(END);
    });
    // A disk that takes nothing but the file's header until it is opened.
    let open = (): void => undefined;
    const disk = new Promise<void>((resolve) => (open = resolve));
    let writes = 0;
    const path = join(dir, 'slow.recording');
    const recording = await startLiveRecording(
      buildRequest({ url: `${server.url}/agent/run`, method: 'GET', headers: [] }),
      path,
      {
        openSink: async (file) => {
          const sink = await openFileSink(file);
          return { write: async (data) => (writes++ > 0 && (await disk), sink.write(data)), close: () => sink.close() };
        },
      },
    );
    // Until the server is held back: nothing more went out for 200 ms (or all of it went out).
    for (let last = -1, waited = 0; sent !== last && sent < total && waited < 10_000; waited += 200) {
      last = sent;
      await sleep(200);
    }
    // What the server got out: the backlog (base64 takes 4/3 of the bytes), one socket
    // read and the socket buffers of both ends; never the stream.
    expect(sent).toBeLessThan(MAX_BACKLOG_BYTES + 8 * 1024 * 1024);
    open();
    const result = await recording.done;
    expect(result, result.end.reason).toMatchObject({ state: 'complete', end: { kind: 'done' } });
    expect(result.bytes).toBe(sent + END.length);
    expect(await bytesInRecording(path)).toBe(result.bytes);
    expect(result.counted.envelopes).toBe(events + 2);
  });
});
