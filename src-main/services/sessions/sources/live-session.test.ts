import { afterEach, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../../testing/fixtures';
import {
  SSE_HEADERS,
  startLoopbackServer,
  type LoopbackHandler,
  type LoopbackServer,
} from '../../connection/loopback-testing';
import { createSessionRegistry, type SessionRegistry } from '../session-registry';
import { waitFor } from '../service-testing';
import { createSessionStore } from '../store/session-store';
import { backoffDelay, createLiveSessions, RECONNECT_MAX_MS, reconnectDelay } from './live-session';

let server: LoopbackServer | undefined;
let registry: SessionRegistry | undefined;

afterEach(async () => {
  for (const rt of registry?.sessions.values() ?? []) rt.current?.connection.stop();
  registry?.dispose();
  await server?.close();
  server = registry = undefined;
});

async function setup(handler: LoopbackHandler) {
  server = await startLoopbackServer(handler);
  registry = createSessionRegistry({ batchIntervalMs: 5 });
  return { server, registry, live: createLiveSessions(registry) };
}

const ended = (registry: SessionRegistry, id: string) =>
  waitFor(
    () =>
      ['complete', 'stopped', 'failed'].includes(registry.runtimeOf(id).data.state)
        ? registry.runtimeOf(id).data
        : undefined,
    `session ${id} to end`,
  );

describe('live sessions', () => {
  it('backs off: the clamped retry, doubled for each attempt in a row that got no bytes, never past the maximum', () => {
    expect(reconnectDelay(null)).toBe(3000);
    expect(backoffDelay(1000, 0)).toBe(1000);
    expect(backoffDelay(1000, 3)).toBe(8000);
    expect(backoffDelay(1000, 100)).toBe(RECONNECT_MAX_MS);
  });

  it('connects, registers the session and decodes the stream as it arrives into a complete session', async () => {
    const bytes = readFixture('example_1.json.sse');
    const { server, registry, live } = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(Buffer.from(bytes));
    });
    const summary = await live.connect({ url: `${server.url}/agent/run`, method: 'GET', headers: [] });
    expect(registry.sessions.has(summary.id)).toBe(true);
    const data = await ended(registry, summary.id);
    expect(data.state).toBe('complete');
    expect(data.envelopeCount).toBe(decodeBytes(bytes).envelopes.length);
  });

  /** A loopback server that writes these lines as NDJSON, 10 ms apart. */
  const ndjsonServer = (lines: readonly string[]) =>
    setup(async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      for (const line of lines) {
        res.write(`${line}\n`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      res.end();
    });

  it("decodes Ollama's native API (application/x-ndjson) line by line as it arrives, as the ollama dialect", async () => {
    const { server, registry, live } = await ndjsonServer([
      '{"model":"llama3.2","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"Hel"},"done":false}',
      '{"model":"llama3.2","created_at":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":"lo"},"done":false}',
      '{"model":"llama3.2","created_at":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","eval_count":2}',
    ]);
    const summary = await live.connect({ url: `${server.url}/api/chat`, method: 'POST', headers: [] });
    const data = await ended(registry, summary.id);
    // Each line one event: its text streams as one block, and its done line ends the stream.
    expect(data.summary()).toMatchObject({ state: 'complete', format: 'ollama', end: { kind: 'done' } });
    expect(data.summary().diagnostics).toMatchObject({ error: 0, warning: 0 });
  });

  it('decodes NDJSON of objects no dialect claims line by line, shown as they came', async () => {
    const { server, registry, live } = await ndjsonServer([
      '{"job":"build-1","step":"checkout","at":"2026-01-01T00:00:00Z"}',
      '{"job":"build-1","step":"compile","at":"2026-01-01T00:00:01Z"}',
      '{"job":"build-1","step":"done","at":"2026-01-01T00:00:02Z","ok":true}',
    ]);
    const summary = await live.connect({ url: `${server.url}/jobs/build-1/log`, method: 'GET', headers: [] });
    const data = await ended(registry, summary.id);
    expect(data.envelopeCount).toBe(3);
    expect(data.summary()).toMatchObject({ state: 'complete', format: 'json-events', end: { kind: 'ended' } });
    expect(data.summary().diagnostics).toMatchObject({ error: 0, warning: 0 });
  });

  it('stops a stream that never ends, as stopped', async () => {
    const { server, registry, live } = await setup((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write('data: {"type":"text","agent":"a","final":false,"delta":"x"}\n\n');
    });
    const summary = await live.connect({ url: `${server.url}/agent/run`, method: 'GET', headers: [] });
    await waitFor(() => registry.runtimeOf(summary.id).data.envelopeCount === 1, 'the first envelope');
    await live.stop({ sessionId: summary.id });
    expect(registry.runtimeOf(summary.id).data.state).toBe('stopped');
  });

  it('runs a session again in other formats only when it was connected to an agent', async () => {
    const { registry, live } = await setup(() => {});
    const rt = registry.register(
      createSessionStore({
        id: 'f',
        title: 'file',
        source: { kind: 'file', path: '/x', importer: 'sse' },
        createdAt: 0,
      }),
      {},
    );
    await expect(live.runInFormats({ sessionId: rt.data.id, formats: ['xml'] })).rejects.toThrow(
      '"file" was not connected to an agent',
    );
  });
});
