import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '../../testing/fixtures';
import { createRecorder } from '../recording/recorder';
import { bytesSourceFs, openSource } from './index';
import { concatChunks, decodeSource, expectImportError, readLegs, tempFiles } from './testing';

const { file, dir } = tempFiles();

describe('recordings', () => {
  it('a two-leg recording of the frontend-tools round trip decodes both legs', async () => {
    const path = join(dir(), 'round-trip.recording');
    const recorder = await createRecorder(path);
    const request = { method: 'POST', url: 'http://h/agent/run', headers: [] as [string, string][], body: '{}' };
    for (const [i, name] of ['frontend_tools.json.sse', 'frontend_tools_resume.json.sse'].entries()) {
      const leg = recorder.startLeg(request);
      let t = 100 * i;
      for (let at = 0, bytes = readFixture(name); at < bytes.length; at += 500)
        recorder.chunk(leg, bytes.subarray(at, at + 500), t++);
      recorder.endLeg(leg, { reason: 'done' });
    }
    await recorder.close();
    const source = await openSource(path);
    const legs = await readLegs(source);
    expect(concatChunks(legs[1] ?? []).equals(Buffer.from(readFixture('frontend_tools_resume.json.sse')))).toBe(true);
    const decoded = await decodeSource(source);
    expect(decoded.formats).toEqual(['json', 'json']);
  });

  it('a file read whole into memory (bytesSourceFs) opens and reads exactly as from disk', async () => {
    for (const path of [
      join(import.meta.dirname, '../../../resources/samples/multi-agent.recording'),
      join(import.meta.dirname, '../../../resources/samples/truncated.recording'),
      fixturePath('example_1.raw.sse'),
    ]) {
      const fromDisk = await openSource(path);
      const fromMemory = await openSource(path, { fs: bytesSourceFs(await readFile(path)) });
      const strip = (source: typeof fromDisk) => ({
        ...source,
        legs: source.legs.map(({ chunks: _chunks, ...leg }) => leg),
      });
      expect(strip(fromMemory)).toEqual(strip(fromDisk));
      // Chunk by chunk: the same times, sizes and bytes.
      const chunks = async (source: typeof fromDisk) =>
        (await readLegs(source)).map((leg) =>
          leg.map((c) => `${c.receivedAt} ${Buffer.from(c.bytes).toString('base64')}`),
        );
      expect(await chunks(fromMemory)).toEqual(await chunks(fromDisk));
    }
  });

  it('reads a last chunk record that lost only its line ending, without a finding', async () => {
    const header = '{"format":"agent-stream-inspector-recording","version":1,"createdAt":"","t":0,"redacted":true}';
    const leg = '{"type":"leg","leg":0,"t":0,"request":{"method":"GET","url":"http://h/","headers":[],"body":null}}';
    const chunk = (seq: number, text: string) =>
      JSON.stringify({
        type: 'chunk',
        leg: 0,
        seq,
        offset: seq * 8,
        t: seq,
        bytes: Buffer.from(text).toString('base64'),
      });
    const path = await file(
      'no-final-lf.recording',
      [header, leg, chunk(0, 'data: 1\n'), chunk(1, '\ndata: 2')].join('\n'),
    );
    const source = await openSource(path);
    expect(source.diagnostics.map((d) => d.rule)).toEqual(['recording.unfinished-leg']);
    const [chunks = []] = await readLegs(source);
    expect(concatChunks(chunks).toString()).toBe('data: 1\n\ndata: 2');
  });

  it('opens a recording killed while writing its header, reporting the torn line', async () => {
    const path = await file('torn-header.recording', '{"format":"agent-stream-inspector-recording","vers');
    const source = await openSource(path);
    expect(source.kind).toBe('recording');
    expect(source.legs).toEqual([]);
    expect(source.header).toBeNull();
    expect(source.diagnostics.map((d) => d.rule)).toEqual(['recording.torn-tail']);
  });

  it('refuses a recording from a newer format version, saying so', async () => {
    const path = await file(
      'future.recording',
      '{"format":"agent-stream-inspector-recording","version":2,"createdAt":"","t":0,"redacted":true}\n',
    );
    const error = await expectImportError(
      path,
      /format version 2 was written by a newer version of the inspector; this one reads version 1/,
    );
    expect(error.code).toBe('unsupported-version');
  });

  it('opens a recording with damage in the middle and binary garbage at the end, reporting both', async () => {
    const path = join(dir(), 'damaged.recording');
    const recorder = await createRecorder(path);
    const leg = recorder.startLeg({ method: 'GET', url: 'http://h/', headers: [], body: null });
    for (let i = 0; i < 5; i++) recorder.chunk(leg, Buffer.from(`data: ${i}\n\n`), i);
    recorder.endLeg(leg, { reason: 'done' });
    await recorder.close();
    const lines = (await readFile(path, 'utf8')).split('\n');
    lines[4] = lines[4]?.replace('"bytes":"', '"bytes":"@@') ?? '';
    const damaged = lines.join('\n');
    await writeFile(path, Buffer.concat([Buffer.from(damaged), Buffer.from([0x00, 0xff, 0xfe, 0x13, 0x37])]));
    const source = await openSource(path);
    expect(source.diagnostics.map((d) => [d.rule, d.at.fileOffset])).toEqual([
      ['recording.damaged-line', Buffer.byteLength(lines.slice(0, 4).join('\n')) + 1],
      // The damaged line was chunk 2: the next chunk's numbers show the hole.
      ['recording.chunk-sequence', Buffer.byteLength(lines.slice(0, 5).join('\n')) + 1],
      ['recording.torn-tail', Buffer.byteLength(damaged)],
    ]);
    const [chunks = []] = await readLegs(source);
    expect(concatChunks(chunks).toString()).toBe('data: 0\n\ndata: 1\n\ndata: 3\n\ndata: 4\n\n');
  });
});
