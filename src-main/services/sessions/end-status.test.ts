import { afterEach, describe, expect, it } from 'vitest';
import { readFixture } from '../../testing/fixtures';
import {
  refusedPort,
  SSE_HEADERS,
  startLoopbackServer,
  writeSlowly,
  type LoopbackHandler,
  type LoopbackServer,
} from '../connection/loopback-testing';
import { settled, waitFor } from './service-testing';
import { createSessionService, type SessionService } from './session-service';

let server: LoopbackServer | undefined;
let service: SessionService | undefined;

afterEach(async () => {
  await service?.dispose();
  await server?.close();
  server = service = undefined;
});

async function connectTo(handler: LoopbackHandler) {
  server = await startLoopbackServer(handler);
  service = createSessionService();
  const summary = await service.connect({ url: `${server.url}/agent/run`, method: 'GET', headers: [] });
  return { service, id: summary.id };
}

const STREAM = readFixture('json_stream.json.sse');

describe('a live session gets an end status, never "done" for a cut or failed stream', () => {
  it('done: the whole stream with [DONE]', async () => {
    const { service, id } = await connectTo((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(STREAM);
    });
    expect((await settled(service, id)).end).toEqual({
      kind: 'done',
      label: 'done',
      reason: 'The stream ended with [DONE].',
    });
  });

  it('truncated: the server destroys the socket in the middle of an event', async () => {
    const { service, id } = await connectTo(async (req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, [STREAM.subarray(0, 2990)], 0, false); // inside a data line
      req.socket.destroy();
    });
    const done = await settled(service, id);
    expect(done.end?.kind).toBe('truncated');
    expect(done.end?.reason).toMatch(/^The stream was cut inside an event after 22 complete events/);
  });

  it('ended by an error: the error frame of error_midstream', async () => {
    const { service, id } = await connectTo((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(readFixture('error_midstream.json.sse'));
    });
    expect((await settled(service, id)).end).toMatchObject({ kind: 'error', label: 'ended by error' });
  });

  it('stopped: the user stopped the stream', async () => {
    const { service, id } = await connectTo(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, [STREAM.subarray(0, 500)], 0, false);
    });
    await waitFor(
      async () => (await service.listSessions()).find((s) => s.id === id && s.envelopes > 0),
      'the first envelopes',
    );
    await service.stop({ sessionId: id });
    expect((await settled(service, id)).end).toEqual({
      kind: 'stopped',
      label: 'stopped',
      reason: 'The user stopped the stream.',
    });
  });

  it('failed: nothing listens on the port', async () => {
    service = createSessionService();
    const { id } = await service.connect({
      url: `http://127.0.0.1:${await refusedPort()}/agent/run`,
      method: 'GET',
      headers: [],
    });
    const done = await settled(service, id);
    expect(done.end).toMatchObject({ kind: 'failed', label: 'failed' });
    expect(done.end?.reason).toMatch(/refused/i);
  });
});
