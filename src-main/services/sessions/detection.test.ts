import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUnknownFixture } from '../../testing/fixtures';
import { openSource } from '../importers';
import { SSE_HEADERS, writeSlowly } from '../connection/loopback-testing';
import { settled, useLiveSetup, waitFor } from './service-testing';
import { createSessionService, type SessionService } from './session-service';

/**
 * What chose a session's dialect, as the session summary carries it to the header: the bytes,
 * the request URL or a response header of a live leg or a HAR entry, the user, or nothing (the
 * fallback) — and a stream no dialect claims never ends "truncated" when it is healthy.
 */
const TICKS = readUnknownFixture('ticks.sse');
const setup = useLiveSetup();

describe('live sessions say what chose their dialect', () => {
  it('an unknown feed: shown as generic events, "ended", with no warning or error', async () => {
    const { server, service } = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(TICKS));
    });
    const { id } = await service.connect({ url: `${server.url}/feed`, method: 'GET', headers: [] });
    const summary = await settled(service, id);
    expect(summary).toMatchObject({ format: 'json-events', detection: { by: 'fallback' } });
    expect(summary.end).toMatchObject({ kind: 'ended', label: 'ended' });
    expect(summary.diagnostics).toMatchObject({ error: 0, warning: 0 });
    expect(summary.blocks).toBeUndefined();
    const detail = await service.getSession({ sessionId: id });
    expect(detail.legs.map((l) => [l.format, l.detection])).toEqual([
      ['json-events', { by: 'fallback', data: 'json' }],
    ]);
  });

  it('says it while the stream still runs, once the dialect is decided', async () => {
    const { server, service } = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(Buffer.from(TICKS)); // and never ends
    });
    const { id } = await service.connect({ url: `${server.url}/feed`, method: 'GET', headers: [] });
    const streaming = await waitFor(async () => {
      const summary = (await service.listSessions()).find((s) => s.id === id);
      return summary?.format ? summary : undefined;
    }, 'the decided dialect');
    expect(streaming).toMatchObject({ state: 'streaming', format: 'json-events', detection: { by: 'fallback' } });
    await service.stop({ sessionId: id });
  });

  it('the same feed cut inside an event by the server: "cut off", never "truncated"', async () => {
    const { server, service } = await setup(async (req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, [TICKS.subarray(0, TICKS.length - 10)], 0, false);
      req.socket.destroy();
    });
    const { id } = await service.connect({ url: `${server.url}/feed`, method: 'GET', headers: [] });
    const summary = await settled(service, id);
    expect(summary.end?.kind).toBe('cut');
    expect(summary.end?.reason).toMatch(/^The bytes stopped inside an event after 11 complete events/);
  });

  it("events no dialect claims from a dialect's endpoint are that dialect's, from the URL", async () => {
    const { server, service } = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(TICKS));
    });
    const { id } = await service.connect({
      url: `${server.url}/v1/responses?stream=true`,
      method: 'POST',
      headers: [],
    });
    expect(await settled(service, id)).toMatchObject({
      format: 'openai-responses',
      detection: { by: 'url', detail: '/v1/responses' },
    });
  });

  it('the format the user chose is said to be chosen', async () => {
    const { server, service } = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(TICKS));
    });
    const { id } = await service.connect({
      url: `${server.url}/v1/responses`,
      method: 'POST',
      headers: [],
      format: 'json-events',
    });
    expect(await settled(service, id)).toMatchObject({ format: 'json-events', detection: { by: 'chosen' } });
  });
});

describe('a HAR entry says what chose its dialect', () => {
  let dir: string;
  let service: SessionService;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inspector-detection-'));
    service = createSessionService({ openSource });
  });
  afterEach(async () => {
    await service.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  const harWith = (url: string) => {
    const text = Buffer.from(TICKS).toString('utf8');
    const entry = {
      startedDateTime: '2026-03-01T12:00:00.000Z',
      time: 50,
      request: { method: 'POST', url, httpVersion: 'HTTP/1.1', headers: [] },
      response: {
        status: 200,
        statusText: 'OK',
        headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
        content: { size: text.length, mimeType: 'text/event-stream', text },
      },
      timings: { send: 1, wait: 9, receive: 40 },
    };
    return JSON.stringify({
      log: { version: '1.2', creator: { name: 'test', version: '1' }, pages: [], entries: [entry] },
    });
  };

  it("by its request URL, where its events name no dialect; by nothing, the fallback's", async () => {
    const anthropic = join(dir, 'anthropic.har');
    await writeFile(anthropic, harWith('https://api.anthropic.com/v1/messages'));
    const opened = await service.openFile({ path: anthropic });
    expect(await settled(service, opened.id)).toMatchObject({
      format: 'anthropic-messages',
      detection: { by: 'url', detail: '/v1/messages' },
    });

    const feed = join(dir, 'feed.har');
    await writeFile(feed, harWith('https://example.com/feed'));
    const other = await service.openFile({ path: feed });
    expect(await settled(service, other.id)).toMatchObject({
      format: 'json-events',
      detection: { by: 'fallback' },
      end: { kind: 'ended' },
    });
  });
});
