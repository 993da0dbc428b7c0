import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSource, type ImportedChunk, type ImportedLeg } from '../importers';
import { createRecorder, RecordingExistsError, type FlushAck } from './recorder';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recorder-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const request = {
  method: 'POST',
  url: 'http://127.0.0.1:8000/agent/run',
  headers: [['content-type', 'application/json']] as [string, string][],
  body: '{"user_prompt":"hi"}',
};

async function legChunks(leg: ImportedLeg | undefined) {
  const out: ImportedChunk[] = [];
  if (leg) for await (const chunk of leg.chunks) out.push(chunk);
  return out;
}

describe('recorder', () => {
  it('writes a session that reads back exactly: legs, responses, chunk bytes and times, actions, outcomes', async () => {
    const path = join(dir, 'session.recording');
    let clock = 1000;
    const recorder = await createRecorder(path, { now: () => clock++ });
    const leg0 = recorder.startLeg(request);
    recorder.response(leg0, { status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] }, true);
    const binary = Uint8Array.from([0xe2, 0x82, 0, 0xff, 0x0a, 0x0d]);
    recorder.chunk(leg0, bytes('data: {"type":"text"'), 5000);
    recorder.chunk(leg0, binary, 5010.5);
    recorder.endLeg(leg0, { reason: 'done' });
    recorder.action({
      kind: 'tool-results',
      at: 6000,
      leg: 0,
      body: '{"tool_results":[{"tool_use_id":"t","content":"yes"}]}',
    });
    const leg1 = recorder.startLeg({ ...request, url: 'http://127.0.0.1:8000/agent/tool_results' });
    recorder.chunk(leg1, bytes('data: [DONE]\n\n'), 7000);
    recorder.endLeg(leg1, { reason: 'error', message: 'socket hang up' });
    await recorder.close();

    const source = await openSource(path);
    expect(source.kind).toBe('recording');
    expect(source.diagnostics).toEqual([]);
    expect(source.header).toMatchObject({ version: 1, redacted: true });
    expect(
      source.legs.map((l) => ({ index: l.index, request: l.request, outcome: l.outcome, chunkCount: l.chunkCount })),
    ).toEqual([
      { index: 0, request, outcome: { reason: 'done' }, chunkCount: 2 },
      {
        index: 1,
        request: { ...request, url: 'http://127.0.0.1:8000/agent/tool_results' },
        outcome: { reason: 'error', message: 'socket hang up' },
        chunkCount: 1,
      },
    ]);
    expect(source.legs[0]?.response).toEqual({
      status: 200,
      statusText: 'OK',
      headers: [['content-type', 'text/event-stream']],
    });
    // Each chunk names the line of its record, to be read again by offset.
    const file = await readFile(path);
    const line = (record: { start: number; end: number } | undefined) =>
      record ? file.subarray(record.start, record.end).toString() : '';
    const chunks = [...(await legChunks(source.legs[0])), ...(await legChunks(source.legs[1]))];
    expect(chunks.map(({ bytes, receivedAt }) => ({ bytes, receivedAt }))).toEqual([
      { bytes: bytes('data: {"type":"text"'), receivedAt: 5000 },
      { bytes: binary, receivedAt: 5010.5 },
      { bytes: bytes('data: [DONE]\n\n'), receivedAt: 7000 },
    ]);
    expect(chunks.map((c) => JSON.parse(line(c.record)) as unknown)).toEqual([
      expect.objectContaining({ type: 'chunk', leg: 0, seq: 0, t: 5000 }),
      expect.objectContaining({ type: 'chunk', leg: 0, seq: 1, t: 5010.5 }),
      expect.objectContaining({ type: 'chunk', leg: 1, seq: 0, t: 7000 }),
    ]);
    expect(chunks.every((c) => line(c.record).endsWith('}\n'))).toBe(true);
    expect(source.actions).toEqual([
      { kind: 'tool-results', at: 6000, leg: 0, body: '{"tool_results":[{"tool_use_id":"t","content":"yes"}]}' },
    ]);
  });

  it('never overwrites an existing file, and names it', async () => {
    const path = join(dir, 'taken.recording');
    await writeFile(path, 'precious');
    await expect(createRecorder(path)).rejects.toThrow(RecordingExistsError);
    await expect(createRecorder(path)).rejects.toThrow(`${path} already exists`);
    expect(await readFile(path, 'utf8')).toBe('precious');
  });

  describe('secrets', () => {
    const CANARY = 'CANARY-7f3a9c1e';
    const record = async (redact: boolean) => {
      const path = join(dir, `secrets-${redact}.recording`);
      const recorder = await createRecorder(path, { redact });
      const leg = recorder.startLeg({
        method: 'POST',
        url: `https://user:${CANARY}@agent.example/agent/run?api_key=${CANARY}&format=json`,
        headers: [
          ['Authorization', `Bearer ${CANARY}`],
          ['Cookie', `session=${CANARY}`],
          ['x-api-key', CANARY],
          ['X-Custom-Token', CANARY],
          ['content-type', 'application/json'],
        ],
        body: JSON.stringify({ user_prompt: 'hi', api_key: CANARY }),
      });
      recorder.response(
        leg,
        {
          status: 200,
          statusText: 'OK',
          headers: [
            ['Set-Cookie', `sid=${CANARY}; HttpOnly`],
            ['content-type', 'text/event-stream'],
          ],
        },
        true,
      );
      recorder.chunk(leg, bytes('data: {"type":"text"}\n\n'), 1);
      recorder.action({
        kind: 'tool-results',
        at: 2,
        leg,
        url: `https://agent.example/agent/tool_results?token=${CANARY}`,
        // The extra body fields of a continuation carry the run's own keys (docs/requests.md).
        body: JSON.stringify({ agent_uuid: 'a', tool_results: [], api_key: CANARY }),
      });
      await recorder.close();
      return readFile(path);
    };

    it('never writes a credential: the canary appears nowhere in the file', async () => {
      const file = await record(true);
      expect(file.includes(CANARY)).toBe(false);
      expect(file.toString('latin1')).not.toContain('CANARY');
      // What is not secret survives.
      expect(file.toString()).toContain('application/json');
      expect(file.toString()).toContain('format=json');
    });

    it('keeps them when redaction is turned off (so the test above can fail)', async () => {
      const file = await record(false);
      expect(file.toString().split(CANARY).length - 1).toBeGreaterThanOrEqual(10);
    });
  });

  it('appends as it goes: a chunk reaches the file within the flush interval, a leg end at once', async () => {
    const path = join(dir, 'interval.recording');
    const acks: FlushAck[] = [];
    let chunkFlushed = (): void => undefined;
    const chunkFlush = new Promise<void>((resolve) => (chunkFlushed = resolve));
    const onFlush = (ack: FlushAck): void => {
      acks.push(ack);
      if (ack.chunks > 0) chunkFlushed();
    };
    const recorder = await createRecorder(path, { flushIntervalMs: 40, onFlush });
    const headerOnly = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    expect(headerOnly).toHaveLength(1);
    const leg = recorder.startLeg(request);
    recorder.chunk(leg, bytes('data: one\n\n'), 1);
    // Buffered, not written yet.
    expect((await readFile(path, 'utf8')).split('\n').filter(Boolean)).toHaveLength(1);
    // The flush the interval brings, or 150 ms (well past the interval) if none comes.
    await Promise.race([chunkFlush, new Promise((resolve) => setTimeout(resolve, 150))]);
    expect((await readFile(path, 'utf8')).split('\n').filter(Boolean)).toHaveLength(3);
    expect(acks.at(-1)).toMatchObject({ records: 3, chunks: 1 });
    recorder.endLeg(leg, { reason: 'done' });
    await recorder.flush();
    expect((await readFile(path, 'utf8')).split('\n').filter(Boolean)).toHaveLength(4);
    expect(recorder.acknowledged.bytes).toBe((await readFile(path)).length);
    await recorder.close();
  });

  it('ends legs still open as closed when closed, and refuses records afterwards', async () => {
    const path = join(dir, 'open.recording');
    const recorder = await createRecorder(path);
    const leg = recorder.startLeg(request);
    recorder.chunk(leg, bytes('data: x\n\n'), 1);
    await recorder.close();
    await recorder.close();
    expect(() => recorder.chunk(leg, bytes('late'), 2)).toThrow('closed');
    const source = await openSource(path);
    expect(source.legs[0]?.outcome).toEqual({
      reason: 'closed',
      message: 'The recording was closed while the leg was open.',
    });
    expect(source.diagnostics).toEqual([]);
  });

  it('rejects records for a leg that was never started', async () => {
    const recorder = await createRecorder(join(dir, 'legs.recording'));
    expect(() => recorder.chunk(0, bytes('x'), 1)).toThrow('Leg 0 was never started');
    await recorder.close();
  });

  it('reports a failing disk through onError and close()', async () => {
    const errors: Error[] = [];
    let writes = 0;
    const recorder = await createRecorder('virtual.recording', {
      onError: (e) => errors.push(e),
      openSink: () =>
        Promise.resolve({
          write: () =>
            writes++ === 0 ? Promise.resolve() : Promise.reject(new Error('ENOSPC: no space left on device')),
          close: () => Promise.resolve(),
        }),
    });
    const leg = recorder.startLeg(request);
    recorder.chunk(leg, bytes('x'), 1);
    await expect(recorder.close()).rejects.toThrow('ENOSPC');
    expect(errors.map((e) => e.message)).toEqual(['ENOSPC: no space left on device']);
  });

  it('counts as backlog what waits for the disk, until it is written', async () => {
    const written: Uint8Array[] = [];
    let release = (): void => undefined;
    let gate = Promise.resolve();
    const recorder = await createRecorder(join(dir, 'slow.recording'), {
      maxBufferedBytes: 1024,
      openSink: () =>
        Promise.resolve({
          async write(data) {
            await gate;
            written.push(data);
          },
          close: () => Promise.resolve(),
        }),
    });
    expect(recorder.backlog).toBe(0);
    gate = new Promise((resolve) => (release = resolve));
    const leg = recorder.startLeg(request);
    for (let i = 0; i < 100; i++) recorder.chunk(leg, bytes('data: {"type":"text"}\n\n'.repeat(20)), i);
    const waiting = recorder.backlog;
    // Every record taken is waiting: the first write holds the queue.
    expect(waiting).toBeGreaterThan(100 * 400);
    expect(written).toHaveLength(1);
    release();
    await recorder.flush();
    expect(recorder.backlog).toBe(0);
    expect(written.slice(1).reduce((sum, d) => sum + d.length, 0)).toBe(waiting);
  });
});
