import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeBytes, decodeLegs } from '../../../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../../testing/fixtures';
import { nodeSourceFs, openSource, type SourceFs } from '../../importers';
import { createRecorder } from '../../recording/recorder';
import { settled, waitFor } from '../service-testing';
import { createSessionService, type SessionService } from '../session-service';

/**
 * Opening a recording decodes it as it is read: rows of the first leg come while the rest of
 * the file is still unread, the session says it is loading until every record has been read
 * (damage further on is still found and reported), and its raw bytes are read back from the
 * recording's chunk records.
 */

let dir: string;
let service: SessionService | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recording-open-'));
});

afterEach(async () => {
  await service?.dispose();
  service = undefined;
  await rm(dir, { recursive: true, force: true });
});

const STREAM = readFixture('example_1.json.sse');
const RESUME = readFixture('frontend_tools_resume.json.sse');
const request = { method: 'POST', url: 'http://127.0.0.1:9/agent/run', headers: [] as [string, string][], body: '{}' };
const SSE = { status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] as [string, string][] };

/** A recording, as the recorder writes one, of `legs` streams cut into 300-byte network chunks. */
async function record(name: string, legs: readonly Uint8Array[], options: { endLast?: boolean } = {}): Promise<string> {
  const path = join(dir, name);
  const recorder = await createRecorder(path, { now: () => 1000 });
  for (const [i, stream] of legs.entries()) {
    const leg = recorder.startLeg(request);
    recorder.response(leg, SSE, true);
    for (let at = 0; at < stream.length; at += 300) recorder.chunk(leg, stream.subarray(at, at + 300), 1000 + at);
    if (options.endLast !== false || i < legs.length - 1) recorder.endLeg(leg, { reason: 'done' });
  }
  await recorder.flush();
  // Closing would end an open leg as "closed": leave the file as a recorder killed there would.
  if (options.endLast !== false) await recorder.close();
  return path;
}

/** The node file system with every read from `gate` on held until `open()`: the file as read so far. `read()`: the furthest byte read. */
function gatedFs(gate: number): { fs: SourceFs; open: () => void; read: () => number } {
  let open = (): void => {};
  let furthest = 0;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const fs: SourceFs = {
    async open(path) {
      const file = await nodeSourceFs.open(path);
      return {
        size: file.size,
        async read(position, length) {
          if (position >= gate) await opened;
          const bytes = await file.read(position, position < gate ? Math.min(length, gate - position) : length);
          furthest = Math.max(furthest, position + bytes.length);
          return bytes;
        },
        close: () => file.close(),
      };
    },
  };
  return { fs, open: () => open(), read: () => furthest };
}

function serviceReading(fs: SourceFs): SessionService {
  service = createSessionService({ openSource: (path, options) => openSource(path, { ...options, fs }) });
  return service;
}

describe('opening a recording while it is read', () => {
  it('shows the first leg’s rows, envelopes and raw bytes before the rest of the file is read, and loads until it is', async () => {
    const path = await record('two-legs.recording', [STREAM, RESUME]);
    const size = (await readFile(path)).length;
    const gate = gatedFs(Math.floor(size / 3));
    const service = serviceReading(gate.fs);
    const { id } = await service.openFile({ path });

    const early = await waitFor(async () => {
      const rows = await service.getRows({ sessionId: id, start: 0, count: 20 });
      return rows.total >= 20 ? rows : undefined;
    }, 'the first rows');
    expect(early.rows.map((r) => r.seq)).toEqual([...Array(20).keys()]);
    expect((await service.getEnvelope({ sessionId: id, seq: 0 })).type).toBe('meta_init');
    const raw = await service.getRawBytes({ sessionId: id, leg: 0, byteStart: 0, byteEnd: 1000 });
    expect(Buffer.from(raw.base64, 'base64').equals(STREAM.subarray(0, 1000))).toBe(true);
    expect(raw.chunks.map((c) => [c.byteStart, c.byteEnd])).toEqual([
      [0, 300],
      [300, 600],
      [600, 900],
      [900, 1200],
    ]);
    // Still reading: loading, no end status, the second leg not there yet.
    const reading = (await service.getSession({ sessionId: id })).summary;
    expect(reading.state).toBe('loading');
    expect(reading.end).toBeUndefined();
    expect(reading.legs).toBe(1);

    gate.open();
    const done = await settled(service, id);
    expect(done.state).toBe('complete');
    expect(done.legs).toBe(2);
    expect(done.generation).toBeUndefined();
    expect(done.envelopes).toBe(decodeLegs([[{ bytes: STREAM }], [{ bytes: RESUME }]]).envelopes.length);
    expect(done.bytes).toBe(STREAM.length + RESUME.length);
    const resumed = await service.getRawBytes({ sessionId: id, leg: 1, byteStart: 250, byteEnd: 700 });
    expect(Buffer.from(resumed.base64, 'base64').equals(RESUME.subarray(250, 700))).toBe(true);
  });

  it('reports a damaged record further on once it is read, keeps every byte around it, and is not done before', async () => {
    const path = await record('damaged.recording', [STREAM]);
    const text = await readFile(path, 'utf8');
    const lines = text.split('\n');
    const damaged = lines.length - 5; // a chunk record near the end
    lines[damaged] = (lines[damaged] as string).replace('"bytes":"', '"bytes":"@@');
    await writeFile(path, lines.join('\n'));
    const lineOffset = (line: number): number => Buffer.byteLength(lines.slice(0, line).join('\n')) + 1;
    const gate = gatedFs(Math.floor(text.length / 2));
    const service = serviceReading(gate.fs);
    const { id } = await service.openFile({ path });
    await waitFor(
      async () => (await service.getRows({ sessionId: id, start: 0, count: 1 })).total > 0,
      'the first rows',
    );
    expect((await service.getDiagnostics({ sessionId: id })).filter((d) => d.rule.startsWith('recording.'))).toEqual(
      [],
    );
    expect((await service.getSession({ sessionId: id })).summary.state).toBe('loading');

    gate.open();
    const done = await settled(service, id);
    const findings = (await service.getDiagnostics({ sessionId: id })).filter((d) => d.rule.startsWith('recording.'));
    expect(findings.map((d) => [d.rule, d.at.fileOffset])).toEqual([
      ['recording.damaged-line', lineOffset(damaged)],
      ['recording.chunk-sequence', lineOffset(damaged + 1)],
    ]);
    // The damaged chunk is the hole; every other byte is there, in order.
    const hole = (damaged - 3) * 300; // lines before the leg's chunks: header, leg, response
    const all = await service.getRawBytes({ sessionId: id, leg: 0, byteStart: 0, byteEnd: STREAM.length });
    expect(
      Buffer.from(all.base64, 'base64').equals(Buffer.concat([STREAM.subarray(0, hole), STREAM.subarray(hole + 300)])),
    ).toBe(true);
    expect(done.diagnostics.error).toBeGreaterThanOrEqual(2);
  });

  it('says truncated, never done, for a recording cut inside its leg, and loading until the cut is read', async () => {
    const whole = await readFile(await record('whole.recording', [STREAM]));
    const cutAt = whole.lastIndexOf('{"type":"chunk"') + 40; // inside the last chunk record: a torn line
    const path = join(dir, 'cut.recording');
    await writeFile(path, whole.subarray(0, cutAt));
    const gate = gatedFs(Math.floor(cutAt / 2));
    const service = serviceReading(gate.fs);
    const { id } = await service.openFile({ path });
    await waitFor(
      async () => (await service.getRows({ sessionId: id, start: 0, count: 1 })).total > 0,
      'the first rows',
    );
    const reading = (await service.getSession({ sessionId: id })).summary;
    expect([reading.state, reading.end]).toEqual(['loading', undefined]);

    gate.open();
    const done = await settled(service, id);
    expect(done.state).toBe('complete');
    expect(done.end?.kind).toBe('truncated');
    expect(done.end?.reason).toMatch(/recording ends inside this leg/);
    const rules = (await service.getDiagnostics({ sessionId: id })).map((d) => d.rule);
    expect(rules).toEqual(expect.arrayContaining(['recording.torn-tail', 'recording.unfinished-leg']));
  });

  it('stops reading the file when the session is closed while it loads', async () => {
    const path = await record(
      'long.recording',
      Array.from({ length: 40 }, () => STREAM),
    );
    const size = (await readFile(path)).length;
    const gate = gatedFs(300_000);
    const service = serviceReading(gate.fs);
    const { id } = await service.openFile({ path });
    await waitFor(
      async () => (await service.getRows({ sessionId: id, start: 0, count: 1 })).total > 0,
      'the first rows',
    );
    await service.closeSession({ sessionId: id });
    gate.open();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(size).toBeGreaterThan(2_000_000);
    // The blocks already asked for (one being decoded, one read ahead), not the rest of the file.
    expect(gate.read()).toBeLessThan(300_000 + 3 * 256 * 1024);
  });

  it('decodes a leg’s chunk recorded after its end record, as the index does', async () => {
    const lines = (await readFile(await record('late.recording', [STREAM]), 'utf8')).split('\n').filter(Boolean);
    const end = lines.findIndex((l) => l.startsWith('{"type":"end"'));
    const [late] = lines.splice(end - 1, 1);
    lines.splice(end, 0, late as string); // the last chunk after the end record
    const path = join(dir, 'late-chunk.recording');
    await writeFile(path, `${lines.join('\n')}\n`);
    const service = serviceReading(nodeSourceFs);
    const { id } = await service.openFile({ path });
    const done = await settled(service, id);
    expect(done.generation).toBeUndefined();
    expect(done.bytes).toBe(STREAM.length);
    expect(done.envelopes).toBe(decodeBytes(STREAM).envelopes.length);
    expect(done.end?.kind).toBe('done');
  });

  it('starts over from the index when legs interleave, to the same session as legs in order', async () => {
    const lines = (await readFile(await record('ordered.recording', [STREAM, RESUME]), 'utf8'))
      .split('\n')
      .filter(Boolean);
    // Leg 1 starts before leg 0's last chunk and end record: allowed by the format.
    const start1 = lines.findIndex((l) => l.startsWith('{"type":"leg","leg":1'));
    const [leg1] = lines.splice(start1, 1);
    lines.splice(start1 - 2, 0, leg1 as string);
    const path = join(dir, 'interleaved.recording');
    await writeFile(path, `${lines.join('\n')}\n`);
    const service = serviceReading(nodeSourceFs);
    const { id } = await service.openFile({ path });
    const done = await settled(service, id);
    expect(done.generation).toBe(1);
    expect([done.legs, done.bytes, done.end?.kind]).toEqual([2, STREAM.length + RESUME.length, 'done']);
    expect(done.envelopes).toBe(decodeLegs([[{ bytes: STREAM }], [{ bytes: RESUME }]]).envelopes.length);
    const detail = await service.getSession({ sessionId: id });
    expect(detail.legs.map((l) => [l.bytes, l.end?.reason])).toEqual([
      [STREAM.length, 'complete'],
      [RESUME.length, 'complete'],
    ]);
  });
});

describe('a recording session’s raw bytes', () => {
  const rawOf = async (service: SessionService, sessionId: string, byteStart: number, byteEnd: number) =>
    Buffer.from((await service.getRawBytes({ sessionId, leg: 0, byteStart, byteEnd })).base64, 'base64');

  it.skipIf(process.platform === 'win32')(
    'are read back from the recording, which stays readable when the file is deleted',
    async () => {
      const path = await record('deleted.recording', [STREAM]);
      const service = serviceReading(nodeSourceFs);
      const { id } = await service.openFile({ path });
      await settled(service, id);
      await unlink(path);
      expect((await rawOf(service, id, 100, 5000)).equals(STREAM.subarray(100, 5000))).toBe(true);
      expect((await service.getFrame({ sessionId: id, leg: 0, seq: 3 })).data).toBe(
        decodeBytes(STREAM).frames[0]?.[3]?.data,
      );
    },
  );

  it('are an error naming the file, never other bytes, once the recording is rewritten', async () => {
    const path = await record('rewritten.recording', [STREAM]);
    const service = serviceReading(nodeSourceFs);
    const { id } = await service.openFile({ path });
    await settled(service, id);
    const original = await readFile(path);
    await writeFile(path, original.subarray(0, original.length / 2));
    expect((await rawOf(service, id, 0, 600)).equals(STREAM.subarray(0, 600))).toBe(true);
    await expect(rawOf(service, id, STREAM.length - 400, STREAM.length)).rejects.toThrow(
      `${path} was changed on disk after it was opened`,
    );
  });
});
