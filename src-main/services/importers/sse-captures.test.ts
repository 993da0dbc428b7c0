import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { fixturePath, listSseFixtures, readFixture } from '../../testing/fixtures';
import { openSource } from './index';
import { blockSummary, concatChunks, decodeSource, readLegs, tempFiles } from './testing';

const { file, dir } = tempFiles();

describe('raw text/event-stream captures', () => {
  it.each(listSseFixtures())('%s opens as one leg with exactly the file bytes', async (name) => {
    const source = await openSource(fixturePath(name));
    expect(source.kind).toBe('sse');
    expect(source.legs).toHaveLength(1);
    expect(source.diagnostics).toEqual([]);
    const [chunks = []] = await readLegs(source);
    expect(concatChunks(chunks).equals(Buffer.from(readFixture(name)))).toBe(true);
    expect(chunks.every((c) => c.receivedAt === 0 && c.bytes.length <= 64 * 1024)).toBe(true);
  });

  it('decodes an imported capture exactly as the bytes decode', async () => {
    const name = 'multi_agent.json.sse';
    const imported = await decodeSource(await openSource(fixturePath(name)));
    const direct = decodeBytes(readFixture(name));
    expect(imported.envelopes.map((e) => [e.agent, e.type, e.delta])).toEqual(
      direct.envelopes.map((e) => [e.agent, e.type, e.delta]),
    );
    expect(blockSummary(imported)).toEqual(blockSummary(direct));
  });

  it('recognises a capture by content whatever its name (.txt, .json, none)', async () => {
    for (const name of ['capture.txt', 'capture.json', 'capture']) {
      const path = join(dir(), name);
      await copyFile(fixturePath('json_stream.json.sse'), path);
      expect((await openSource(path)).kind).toBe('sse');
    }
  });

  it('reads the HTTP head of a curl -i capture as the response and starts the stream after it', async () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\nx-accel-buffering: no\r\n\r\n';
    const body = readFixture('frontend_tools.json.sse');
    const path = await file('curl-i.sse', Buffer.concat([Buffer.from(head), body]));
    const source = await openSource(path);
    expect(source.legs[0]?.response).toEqual({
      status: 200,
      statusText: 'OK',
      headers: [
        ['content-type', 'text/event-stream; charset=utf-8'],
        ['x-accel-buffering', 'no'],
      ],
    });
    const [chunks = []] = await readLegs(source);
    expect(concatChunks(chunks).equals(Buffer.from(body))).toBe(true);
    expect(source.notes.join(' ')).toContain('curl -i');
  });

  it('opens a capture cut off mid-event; the decoder, not the importer, reports the partial event', async () => {
    const bytes = readFixture('json_stream.json.sse');
    const path = await file('cut.sse', bytes.subarray(0, 1000));
    const source = await openSource(path);
    expect(source.diagnostics).toEqual([]);
    const decoded = await decodeSource(source);
    expect(decoded.diagnostics.map((d) => d.rule)).toContain('sse.unterminated-event');
  });
});
