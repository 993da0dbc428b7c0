import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultSessionService } from '../../../hosts/default-service';
import { startLoopbackServer, writeSlowly, type LoopbackServer } from '../../connection/loopback-testing';
import { openSource } from '../../importers/index';
import { legIsStream } from '../../importers/types';
import { settled } from '../service-testing';
import type { SessionService } from '../session-service';

/**
 * Which recorded responses are streams to decode: the same as a live connection decides, for
 * every stream it accepts (SSE, NDJSON, the AI SDK's v4 data stream announced by its header, a
 * JSON array streamed element by element), whether the file is a recording, a `curl -i`
 * capture or a HAR entry. A one-off answer (a JSON object, an error page) is shown, never
 * decoded.
 */

let dir: string;
let service: SessionService;
let server: LoopbackServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'stream-responses-'));
  service = createDefaultSessionService();
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await service.dispose();
  await rm(dir, { recursive: true, force: true });
});

/** NDJSON events no dialect claims: decoded line by line by the fallback. */
const NDJSON = '{"kind":"tick","n":1}\n{"kind":"tick","n":2}\n{"kind":"tock","n":3}\n';
const V4 = '0:"Hi"\n0:" there"\nd:{"finishReason":"stop"}\n';
const GEMINI_ARRAY =
  '[{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}}]},\n' +
  '{"candidates":[{"content":{"role":"model","parts":[{"text":" there"}]},"finishReason":"STOP"}]}]';

const STREAMS = [
  { name: 'NDJSON', headers: { 'Content-Type': 'application/x-ndjson' }, body: NDJSON, envelopes: 3 },
  {
    name: 'an AI SDK v4 data stream',
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Vercel-AI-Data-Stream': 'v1' },
    body: V4,
    text: 'Hi there',
  },
  {
    name: 'a streamed JSON array',
    headers: { 'Content-Type': 'application/json' },
    body: GEMINI_ARRAY,
    text: 'Hi there',
  },
] as const;

async function shown(id: string) {
  const summary = await settled(service, id);
  const [detail, blocks] = await Promise.all([
    service.getSession({ sessionId: id }),
    service.getBlocks({ sessionId: id }),
  ]);
  return {
    summary,
    failure: detail.legs[0]?.failure,
    texts: blocks.filter((b) => b.kind === 'text').map((b) => b.preview),
  };
}

const head = (headers: Record<string, string>): string =>
  `HTTP/1.1 200 OK\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

describe('a stream of any wire the connection accepts', () => {
  it.each(STREAMS)('$name, recorded live, reopens decoded as it was live', async (stream) => {
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, stream.headers);
      await writeSlowly(res, [stream.body.slice(0, 20), stream.body.slice(20)], 20);
    });
    const path = join(dir, 'live.recording');
    const { id } = await service.connect({ url: `${server.url}/stream`, method: 'POST', headers: [], recordTo: path });
    const live = await shown(id);
    expect(live.failure).toBeUndefined();
    expect(live.summary.envelopes).toBeGreaterThan(0);
    if ('envelopes' in stream) expect(live.summary.envelopes).toBe(stream.envelopes);
    if ('text' in stream) expect(live.texts).toEqual([stream.text]);

    const reopened = await shown((await service.openFile({ path })).id);
    expect(reopened.failure).toBeUndefined();
    expect(reopened.summary).toMatchObject({
      state: live.summary.state,
      envelopes: live.summary.envelopes,
      format: live.summary.format,
      end: live.summary.end,
    });
    expect(reopened.texts).toEqual(live.texts);
  });

  it.each(STREAMS)('$name, captured with its head by `curl -i`, opens decoded', async (stream) => {
    const path = join(dir, 'capture.http');
    await writeFile(path, head(stream.headers) + stream.body);
    const opened = await shown((await service.openFile({ path })).id);
    expect(opened.failure).toBeUndefined();
    expect(opened.summary.state).not.toBe('failed');
    expect(opened.summary.envelopes).toBeGreaterThan(0);
    if ('text' in stream) expect(opened.texts).toEqual([stream.text]);
  });
});

describe('a one-off answer', () => {
  it('recorded live as shown (a 200 JSON object), reopens shown with its body, not decoded', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"error":"stream was not requested"}');
    });
    const path = join(dir, 'answer.recording');
    const { id } = await service.connect({ url: `${server.url}/stream`, method: 'POST', headers: [], recordTo: path });
    const live = await shown(id);
    expect(live.summary).toMatchObject({ state: 'failed', envelopes: 0, end: { kind: 'failed' } });
    const reopened = await shown((await service.openFile({ path })).id);
    expect(reopened.summary).toMatchObject({ envelopes: 0, end: { kind: 'failed' } });
    expect(reopened.failure?.body).toBe('{"error":"stream was not requested"}');
  });

  it('captured by `curl -i` (a 200 JSON object) is refused, saying what it is', async () => {
    const path = join(dir, 'answer.http');
    await writeFile(path, head({ 'Content-Type': 'application/json' }) + '{"error":"no"}\n');
    await expect(service.openFile({ path })).rejects.toThrow(
      'an HTTP response whose body is not an event stream (status 200, content-type application/json)',
    );
  });
});

describe('a session saved as a recording', () => {
  it.each([
    ['a 500 with an empty body', 500, ''],
    ['a 200 JSON object', 200, '{"error":"no"}'],
  ])('of %s reopens failed, its body (if any) shown, never decoded', async (_name, status, body) => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(body);
    });
    const { id } = await service.connect({ url: `${server.url}/stream`, method: 'POST', headers: [] });
    const live = await shown(id);
    expect(live.summary).toMatchObject({ envelopes: 0, end: { kind: 'failed' } });
    const saved = await service.downloadSession({ sessionId: id, kind: 'recording' });
    const path = join(dir, 'saved.recording');
    await writeFile(path, Buffer.from(saved.base64, 'base64'));
    const reopened = await shown((await service.openFile({ path })).id);
    expect(reopened.summary).toMatchObject({ envelopes: 0, end: { kind: 'failed' } });
    expect(reopened.failure?.kind).toBe(live.failure?.kind);
  });
});

describe("a recording's word on its legs", () => {
  /** A recording of one leg whose response record is `response`, with `body` as one chunk. */
  async function recording(response: Record<string, unknown>, body: string): Promise<string> {
    const path = join(dir, `${Object.keys(response).join('-')}-${body.length}.recording`);
    const records = [
      {
        format: 'agent-stream-inspector-recording',
        version: 1,
        createdAt: '2026-12-01T00:00:00.000Z',
        t: 0,
        redacted: true,
      },
      { type: 'leg', leg: 0, t: 0, request: { method: 'POST', url: 'http://127.0.0.1:9/x', headers: [], body: null } },
      { type: 'response', leg: 0, t: 1, status: 200, statusText: 'OK', ...response },
      { type: 'chunk', leg: 0, t: 2, bytes: Buffer.from(body).toString('base64') },
      { type: 'end', leg: 0, t: 3, reason: 'done' },
    ];
    await writeFile(path, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    return path;
  }
  const SSE_BODY = 'data: {"kind":"tick"}\n\n';

  it('decodes the leg it says was a stream, whatever its head, and shows the one it says was not', async () => {
    const array = await recording({ headers: [['content-type', 'application/json']], stream: true }, GEMINI_ARRAY);
    expect((await shown((await service.openFile({ path: array })).id)).texts).toEqual(['Hi there']);
    const shownOnly = await recording({ headers: [['content-type', 'text/event-stream']], stream: false }, SSE_BODY);
    const opened = await shown((await service.openFile({ path: shownOnly })).id);
    expect(opened.summary).toMatchObject({ envelopes: 0, end: { kind: 'failed' } });
    expect(opened.failure?.body).toBe(SSE_BODY);
  });

  it('without a word (written before it existed), decides by the head: an NDJSON type is a stream', async () => {
    const path = await recording({ headers: [['content-type', 'application/x-ndjson']] }, NDJSON);
    const opened = await shown((await service.openFile({ path })).id);
    expect(opened.failure).toBeUndefined();
    expect(opened.summary.envelopes).toBe(3);
  });

  it('without a word, a 200 JSON body that starts as an array is a stream, one that is an object an answer: in the app and by the index the CLI reads', async () => {
    const array = await recording({ headers: [['content-type', 'application/json']] }, GEMINI_ARRAY);
    expect((await shown((await service.openFile({ path: array })).id)).texts).toEqual(['Hi there']);
    const answer = await recording({ headers: [['content-type', 'application/json']] }, '{"error":"no"}');
    const opened = await shown((await service.openFile({ path: answer })).id);
    expect(opened.summary).toMatchObject({ envelopes: 0, end: { kind: 'failed' } });
    expect(opened.failure?.body).toBe('{"error":"no"}');
    const legs = async (path: string) => (await openSource(path)).legs.map(legIsStream);
    expect(await legs(array)).toEqual([true]);
    expect(await legs(answer)).toEqual([false]);
  });

  it('reports a response record whose word is neither true nor false, naming the line', async () => {
    const path = await recording({ headers: [['content-type', 'text/event-stream']], stream: 'yes' }, SSE_BODY);
    const summary = await settled(service, (await service.openFile({ path })).id);
    const findings = await service.getDiagnostics({ sessionId: summary.id });
    expect(findings.map((f) => f.message).join('\n')).toMatch(/Line 3 .*"stream" that is neither true nor false/);
  });
});

describe('a HAR entry', () => {
  const entry = (url: string, mimeType: string, text: string) => ({
    startedDateTime: '2026-12-01T00:00:00.000Z',
    time: 10,
    request: { method: 'POST', url, httpVersion: 'HTTP/1.1', headers: [] },
    response: {
      status: 200,
      statusText: 'OK',
      headers: [{ name: 'Content-Type', value: mimeType }],
      content: { size: text.length, mimeType, text },
    },
    timings: { send: 1, wait: 2, receive: 3 },
  });
  const har = async (entries: unknown[]): Promise<string> => {
    const path = join(dir, 'capture.har');
    await writeFile(path, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries } }));
    return path;
  };

  it('of NDJSON is a stream: opened without asking when it is the only one, beside JSON answers', async () => {
    const path = await har([
      entry('http://h/api/tags', 'application/json', '[]'),
      entry('http://h/api/chat', 'application/x-ndjson', NDJSON),
    ]);
    const opened = await shown((await service.openFile({ path })).id);
    expect(opened.failure).toBeUndefined();
    expect(opened.summary.envelopes).toBe(3);
  });

  it('of a JSON array, chosen by the user, decodes as a stream, as it would live', async () => {
    const path = await har([
      entry('http://h/agent/run', 'text/event-stream', 'data: {"kind":"tick"}\n\n'),
      entry('http://h/v1beta/models/g:streamGenerateContent', 'application/json', GEMINI_ARRAY),
    ]);
    const opened = await shown((await service.openFile({ path, entry: 1 })).id);
    expect(opened.failure).toBeUndefined();
    expect(opened.texts).toEqual(['Hi there']);
  });
});
