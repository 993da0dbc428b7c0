import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { fixturePath, readFixture } from '../../testing/fixtures';
import { SSE_HEADERS, startLoopbackServer, writeSlowly, type LoopbackServer } from '../connection/loopback-testing';
import { startDemoAgent, type DemoAgent } from '../demo-agent/index';
import { createDefaultSessionService } from '../../hosts/default-service';
import { recordEvents, settled, waitFor } from './service-testing';
import type { SessionService } from './session-service';

let dir: string;
let service: SessionService;
let server: LoopbackServer | undefined;
let agent: DemoAgent | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-files-'));
  service = createDefaultSessionService();
});

afterEach(async () => {
  await service.dispose();
  await server?.close();
  await agent?.close();
  server = agent = undefined;
  await rm(dir, { recursive: true, force: true });
});

const CANARY = 'canary-Zq81-secret';

describe('recording live sessions', () => {
  it('records a live session as it arrives, without the secret, and reopens it to the same envelopes', async () => {
    const stream = readFixture('frontend_tools.json.sse');
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, [stream.subarray(0, 3000), stream.subarray(3000)], 30);
    });
    const path = join(dir, 'live.ndjson');
    const { id } = await service.connect({
      url: `${server.url}/agent/run?api_key=${CANARY}`,
      method: 'POST',
      headers: [
        ['Authorization', `Bearer ${CANARY}`],
        ['X-Api-Key', CANARY],
      ],
      body: { kind: 'json', text: JSON.stringify({ user_prompt: 'hi' }) },
      recordTo: path,
    });
    const live = await settled(service, id);
    expect(live.recordingPath).toBe(path);

    const file = await readFile(path, 'utf8');
    expect(file).not.toContain(CANARY);
    expect(file.split('\n')[0]).toContain('agent-stream-inspector-recording');

    const reopened = await service.openFile({ path });
    const done = await settled(service, reopened.id);
    expect(done.source).toEqual({ kind: 'file', path, importer: 'recording' });
    expect(done.envelopes).toBe(live.envelopes);
    expect(done.bytes).toBe(stream.length);
    const [a, b] = await Promise.all([
      service.getRows({ sessionId: id, start: 0, count: 1000 }),
      service.getRows({ sessionId: reopened.id, start: 0, count: 1000 }),
    ]);
    expect(b.rows.map((r) => [r.type, r.preview])).toEqual(a.rows.map((r) => [r.type, r.preview]));
    expect((await service.getSession({ sessionId: reopened.id })).legs[0]!.request?.headers).toContainEqual([
      'Authorization',
      '[redacted]',
    ]);
  });

  it('refuses to record over an existing file', async () => {
    const path = join(dir, 'exists.ndjson');
    await writeFile(path, 'keep me');
    await expect(
      service.connect({ url: 'http://127.0.0.1:9/x', method: 'GET', headers: [], recordTo: path }),
    ).rejects.toThrow(/exists/);
    expect(await readFile(path, 'utf8')).toBe('keep me');
    expect(await service.listSessions()).toEqual([]);
  });

  it('reopens a recorded error response as a failed leg with its body, never decoding it', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(422, { 'Content-Type': 'application/json' });
      res.end('{"detail":"bad"}');
    });
    const path = join(dir, 'fail.ndjson');
    const { id } = await service.connect({
      url: `${server.url}/agent/run`,
      method: 'POST',
      headers: [],
      body: { kind: 'json', text: '{}' },
      recordTo: path,
    });
    await settled(service, id);
    const reopened = await service.openFile({ path });
    // The session shows the failure with its body, as the live one did (its panel in the header).
    expect((await settled(service, reopened.id)).failure).toMatchObject({
      kind: 'http-status',
      body: '{"detail":"bad"}',
    });
    const detail = await service.getSession({ sessionId: reopened.id });
    expect(detail.legs[0]).toMatchObject({
      response: { status: 422 },
      failure: { kind: 'http-status', body: '{"detail":"bad"}' },
    });
    expect(detail.summary.envelopes).toBe(0);
  });
});

describe('opening files', () => {
  it.each(['example_1.json.sse', 'multi_agent.xml.sse', 'example_1.raw.sse', 'frontend_tools.agent_base.json.sse'])(
    'decodes %s exactly like the shared decoder, streaming rows as it goes',
    async (name) => {
      const events = recordEvents(service);
      const { id, state } = await service.openFile({ path: fixturePath(name) });
      expect(state).toBe('loading');
      const done = await settled(service, id);
      const expected = decodeBytes(readFixture(name));
      expect(done.state).toBe('complete');
      expect(done.envelopes).toBe(expected.envelopes.length);
      expect(events.rows(id).map((r) => r.type)).toEqual(expected.envelopes.map((e) => e.type));
      const rules = (await service.getDiagnostics({ sessionId: id })).map((d) => d.rule).sort();
      // A file that ends paused on frontend tools stays open for its answer, so the findings
      // made when a session finishes (what was left open) are not reported yet.
      const atFinish = new Set(done.awaitingTools ? ['tool.call-without-result', 'block.unterminated'] : []);
      expect(rules).toEqual(
        expected.diagnostics
          .map((d) => d.rule)
          .filter((r) => !atFinish.has(r))
          .sort(),
      );
      events.dispose();
    },
  );

  it('says what was expected for a file it cannot read', async () => {
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'just some notes\nnothing here\n');
    await expect(service.openFile({ path })).rejects.toThrow(/notes\.txt/);
  });

  it('opens an upload from the browser host', async () => {
    const bytes = readFixture('probe_citations.json.sse');
    const { id, title } = await service.openUpload({
      name: 'citations.sse',
      base64: Buffer.from(bytes).toString('base64'),
    });
    expect(title).toBe('citations.sse');
    const done = await settled(service, id);
    expect(done.envelopes).toBe(decodeBytes(bytes).envelopes.length);
  });
});

describe('saving and exporting', () => {
  it('saves an opened session as a recording that reopens identically, and exports envelopes, blocks and raw bytes', async () => {
    const name = 'frontend_tools.json.sse';
    const { id } = await service.openFile({ path: fixturePath(name) });
    const opened = await settled(service, id);

    const saved = await service.saveRecording({ sessionId: id, path: join(dir, 'saved.ndjson') });
    expect(saved?.bytes).toBeGreaterThan(0);
    const again = await service.openFile({ path: saved!.path });
    expect((await settled(service, again.id)).envelopes).toBe(opened.envelopes);
    await expect(service.saveRecording({ sessionId: id, path: saved!.path })).rejects.toThrow(/exists/);

    const raw = await service.exportSession({ sessionId: id, kind: 'raw-sse', path: join(dir, 'raw.sse') });
    expect(new Uint8Array(await readFile(raw!.path))).toEqual(readFixture(name));
    const ndjson = await service.exportSession({
      sessionId: id,
      kind: 'envelopes-ndjson',
      path: join(dir, 'env.ndjson'),
    });
    const lines = (await readFile(ndjson!.path, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type?: string; exportedLeg?: number });
    // The leg's head line, then one line per envelope.
    expect(lines[0]).toMatchObject({
      exportedLeg: 0,
      request: null,
      response: null,
      stream: true,
      end: { reason: 'done' },
    });
    expect(lines.slice(1).map((l) => l.type)).toEqual(decodeBytes(readFixture(name)).envelopes.map((e) => e.type));
    const blocks = await service.exportSession({ sessionId: id, kind: 'blocks-json', path: join(dir, 'blocks.json') });
    expect((JSON.parse(await readFile(blocks!.path, 'utf8')) as unknown[]).length).toBe(
      decodeBytes(readFixture(name)).blocks.length,
    );
  });
});

describe('frontend tools with the demo agent', () => {
  it.each(['json', 'xml', 'raw'] as const)(
    'answers user_confirm in %s and decodes the continuation as leg 1, recorded with the action',
    async (format) => {
      agent = await startDemoAgent({ pace: 'fast' });
      const path = join(dir, `answer-${format}.ndjson`);
      const { id } = await service.connect({
        url: `${agent.url}/agent/run?format=${format}`,
        method: 'POST',
        headers: [['Authorization', `Bearer ${CANARY}`]],
        body: {
          kind: 'json',
          text: JSON.stringify({ user_prompt: 'x', scenario: 'frontend-tools', agent_type: 'agent_frontend_tools' }),
        },
        recordTo: path,
      });
      const paused = await settled(service, id);
      expect(paused).toMatchObject({ state: 'complete', awaitingTools: true, format });
      const { pendingTools } = await service.getSession({ sessionId: id });
      expect(pendingTools?.tools.map((t) => t.name)).toContain('user_confirm');

      const results = pendingTools!.tools.map((t) => ({
        tool_use_id: t.toolUseId,
        content: t.name === 'user_confirm' ? 'yes' : 'ok',
      }));
      await service.sendToolResults({ sessionId: id, results });
      const done = await waitFor(async () => {
        const s = (await service.listSessions()).find((x) => x.id === id)!;
        return s.legs === 2 && s.state !== 'connecting' && s.state !== 'streaming' ? s : undefined;
      }, 'continuation');
      expect(done).toMatchObject({ state: 'complete', awaitingTools: false });
      expect(done.envelopes).toBeGreaterThan(paused.envelopes);
      const blocks = await service.getBlocks({ sessionId: id });
      expect(blocks.some((b) => b.leg === 1 && b.kind === 'text' && b.status === 'complete')).toBe(true);
      expect((await service.getDiagnostics({ sessionId: id })).filter((d) => d.severity === 'error')).toEqual([]);

      const recording = await readFile(path, 'utf8');
      expect(recording).not.toContain(CANARY);
      expect(recording).toContain('"type":"action"');
      const reopened = await service.openFile({ path });
      const replayed = await settled(service, reopened.id);
      expect(replayed).toMatchObject({ legs: 2, envelopes: done.envelopes });
    },
  );
});

describe('downloads (the browser host saves and exports through the page)', () => {
  it('builds every format as bytes: the recording, raw SSE, NDJSON and HAR reopen to the same envelopes; blocks and transcript carry the conversation; no secret leaves', async () => {
    const stream = readFixture('multi_agent.json.sse');
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      await writeSlowly(res, [stream.subarray(0, 5000), stream.subarray(5000)], 20);
    });
    const { id } = await service.connect({
      url: `${server.url}/agent/run?api_key=${CANARY}`,
      method: 'POST',
      headers: [['Authorization', `Bearer ${CANARY}`]],
      body: { kind: 'json', text: JSON.stringify({ user_prompt: 'Write an invoice' }) },
    });
    const live = await settled(service, id);
    const rows = async (sessionId: string) =>
      (await service.getRows({ sessionId, start: 0, count: 1000 })).rows.map((r) => [r.agent, r.type, r.preview]);
    const expected = await rows(id);

    for (const kind of ['recording', 'raw-sse', 'envelopes-ndjson', 'har'] as const) {
      const file = await service.downloadSession({ sessionId: id, kind });
      const bytes = Buffer.from(file.base64, 'base64');
      expect(bytes.byteLength).toBe(file.bytes);
      expect(bytes.toString('latin1')).not.toContain(CANARY);
      expect(file.fileName).toMatch(/^POST-127\.0\.0\.1-\d+-agent-run\.[a-z]+$/);
      const path = join(dir, file.fileName);
      await writeFile(path, bytes);
      const reopened = await settled(service, (await service.openFile({ path })).id);
      expect(reopened.envelopes, kind).toBe(live.envelopes);
      expect(await rows(reopened.id), kind).toEqual(expected);
    }

    const blocks = JSON.parse(
      Buffer.from((await service.downloadSession({ sessionId: id, kind: 'blocks-json' })).base64, 'base64').toString(
        'utf8',
      ),
    ) as { kind: string }[];
    expect(blocks.length).toBe((await service.getBlocks({ sessionId: id })).length);
    const transcript = await service.downloadSession({ sessionId: id, kind: 'transcript-md' });
    expect(transcript.mimeType).toBe('text/markdown');
    const markdown = Buffer.from(transcript.base64, 'base64').toString('utf8');
    expect(markdown).toMatch(/^# POST 127\.0\.0\.1:\d+\/agent\/run\n/);
    expect(markdown).toContain('## sub 1');
    expect(markdown).toContain('BELLA ITALIA');
  });
});
