import { afterEach, describe, expect, it } from 'vitest';
import { openConnection, type ConnectionHandlers } from './connection';
import { startLoopbackServer, writeSlowly, type LoopbackServer } from './loopback-testing';

/**
 * A 2xx `application/json` response is a stream when its body is a JSON array sent element by
 * element (Gemini's streamGenerateContent without alt=sse); its first bytes decide. A JSON
 * object (an answer that is no stream, an error sent with 200) is still shown, not decoded.
 */

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function capture() {
  const seen = {
    heads: [] as { status: number; accepted: boolean }[],
    chunks: [] as { text: string; receivedAt: number }[],
    rejected: 0,
  };
  const handlers: ConnectionHandlers = {
    onResponse: (head, accepted) => seen.heads.push({ status: head.status, accepted }),
    onChunk: (bytes, receivedAt) => seen.chunks.push({ text: Buffer.from(bytes).toString('utf8'), receivedAt }),
    onRejectedChunk: (bytes) => (seen.rejected += bytes.byteLength),
  };
  return { seen, handlers };
}

const post = (url: string) => ({
  url: new URL(`${url}/v1beta/models/m:streamGenerateContent`),
  method: 'POST',
  headers: [],
});

describe('a JSON array body', () => {
  it('is accepted and handed on chunk by chunk as it arrives, the held first chunks with their own times', async () => {
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
      await writeSlowly(res, ['\r\n', '[{"candidates": []}', '\r\n,\r\n{"candidates": []}', '\r\n]'], 20);
    });
    const { seen, handlers } = capture();
    const outcome = await openConnection(post(server.url), handlers).done;
    expect(outcome).toMatchObject({ reason: 'complete', status: 200 });
    expect(seen.heads).toEqual([{ status: 200, accepted: true }]);
    expect(seen.chunks.map((c) => c.text)).toEqual([
      '\r\n',
      '[{"candidates": []}',
      '\r\n,\r\n{"candidates": []}',
      '\r\n]',
    ]);
    const times = seen.chunks.map((c) => c.receivedAt);
    expect(times[2]).toBeGreaterThan(times[1] ?? 0);
  });

  it('is decided across chunks: a byte-order mark and whitespace split over several writes before the bracket', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      for (const part of [
        bom.subarray(0, 1),
        bom.subarray(1),
        Buffer.from(' \r\n'),
        Buffer.from('\t'),
        Buffer.from('[{}]'),
      ]) {
        res.write(part);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      res.end();
    });
    const { seen, handlers } = capture();
    const outcome = await openConnection(post(server.url), handlers).done;
    expect(outcome).toMatchObject({ reason: 'complete', status: 200 });
    expect(seen.heads).toEqual([{ status: 200, accepted: true }]);
    // The mark's bytes were split, so each chunk's own text shows them replaced; what follows is exact.
    expect(seen.chunks.map((c) => c.text).join('')).toMatch(/ \r\n\t\[\{\}\]$/);
  });

  it('must not: a JSON object sent with 200 is refused as a stream and shown', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}');
    });
    const { seen, handlers } = capture();
    const outcome = await openConnection(post(server.url), handlers).done;
    expect(outcome.failure).toMatchObject({ kind: 'content-type' });
    expect(seen.heads).toEqual([{ status: 200, accepted: false }]);
    expect(seen.chunks).toEqual([]);
    expect(seen.rejected).toBeGreaterThan(0);
  });

  it('must not: an empty JSON body is no stream', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end();
    });
    const { seen, handlers } = capture();
    const outcome = await openConnection(post(server.url), handlers).done;
    expect(outcome.reason).toBe('failed');
    expect(seen.heads).toEqual([{ status: 200, accepted: false }]);
  });
});
