import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { fixturePath, listSseFixtures, readFixture } from '../../testing/fixtures';
import { createRecorder } from '../recording/recorder';
import { bytesSourceFs, HarEntryChoiceError, ImportError, openSource } from './index';
import { blockSummary, concatChunks, decodeSource, readLegs } from './testing';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const file = async (name: string, content: string | Uint8Array): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
};

/** The data of every `data:` line of a fixture (all fixtures here are one data line per event). */
const dataLines = (name: string): string[] =>
  Buffer.from(readFixture(name))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice('data: '.length));

const isJsonObject = (text: string): boolean => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

/** The Anthropic events of a raw fixture, as a JSON array (the shape of upstream's json_stream.json). */
const anthropicEvents = (name: string): Record<string, unknown>[] =>
  dataLines(name)
    .filter(isJsonObject)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const sseOf = (payloads: string[]): Uint8Array => Buffer.from(payloads.map((p) => `data: ${p}\n\n`).join(''));

async function expectImportError(path: string, message: string | RegExp) {
  const error = await openSource(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImportError);
  expect((error as ImportError).message).toMatch(message);
  return error as ImportError;
}

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
      const path = join(dir, name);
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

describe('envelopes as NDJSON and JSON arrays', () => {
  const name = 'json_stream.json.sse';
  const expected = () => blockSummary(decodeBytes(readFixture(name)));

  it('NDJSON of envelopes decodes to the same blocks as the stream', async () => {
    const path = await file('envelopes.ndjson', `${dataLines(name).join('\n')}\n`);
    const source = await openSource(path);
    expect(source.kind).toBe('ndjson-envelopes');
    expect(source.diagnostics).toEqual([]);
    expect(blockSummary(await decodeSource(source))).toEqual(expected());
  });

  it.each(['\n', '\r\n'])('NDJSON with %j line endings gives the same events', async (ending) => {
    const path = await file(`envelopes-${ending.length}.jsonl`, dataLines(name).join(ending));
    const [chunks = []] = await readLegs(await openSource(path));
    expect(concatChunks(chunks).equals(Buffer.from(readFixture(name)))).toBe(true);
  });

  it('a pretty-printed JSON array of envelopes decodes to the same blocks; [DONE] as a string item is kept', async () => {
    const items = dataLines(name).map((l) => (isJsonObject(l) ? (JSON.parse(l) as unknown) : l));
    expect(items.at(-1)).toBe('[DONE]');
    const path = await file('envelopes.json', JSON.stringify(items, null, 2));
    const source = await openSource(path);
    expect(source.kind).toBe('json-envelopes');
    const decoded = await decodeSource(source);
    expect(blockSummary(decoded)).toEqual(expected());
    expect(decoded.diagnostics.map((d) => d.rule)).not.toContain('stream.missing-done');
    const [chunks = []] = await readLegs(source);
    expect(chunks).toHaveLength(items.length);
  });

  it('keeps the escapes of the source exactly (no re-serialisation)', async () => {
    const envelope = '{"type":"text","agent":"a","final":false,"delta":"\\u00e9 \\ud83d\\ude00 \\"q\\" 1.0e2"}';
    const path = await file('escapes.json', `[\n  ${envelope}\n]\n`);
    const [chunks = []] = await readLegs(await openSource(path));
    expect(concatChunks(chunks).toString()).toBe(`data: ${envelope}\n\n`);
  });
});

describe('Anthropic raw events', () => {
  const events = anthropicEvents('json_stream.raw.sse');
  const expected = () => blockSummary(decodeBytes(sseOf(events.map((e) => JSON.stringify(e)))));

  it("a JSON array of events (like upstream json_stream.json) decodes as the Anthropic Messages API: the agent raw format's XML items are not there", async () => {
    expect(events.length).toBeGreaterThan(40);
    const path = await file('json_stream.json', JSON.stringify(events, null, 2));
    const source = await openSource(path);
    expect(source.kind).toBe('anthropic-events');
    const decoded = await decodeSource(source);
    expect(decoded.formats).toEqual(['anthropic-messages']);
    expect(blockSummary(decoded)).toEqual(expected());
    expect(decoded.blocks.map((b) => b.content).join('')).toContain('I need to calculate 5 + (10 * 2)');
  });

  it('a JSON array of API responses (each an array of events) is flattened in order', async () => {
    const responses: Record<string, unknown>[][] = [];
    for (const event of events) {
      if (event['type'] === 'message_start') responses.push([]);
      responses.at(-1)?.push(event);
    }
    expect(responses).toHaveLength(3);
    const path = await file('responses.json', JSON.stringify(responses));
    const source = await openSource(path);
    expect(source.kind).toBe('anthropic-events');
    expect(blockSummary(await decodeSource(source))).toEqual(expected());
  });

  it('NDJSON of events decodes the same', async () => {
    const path = await file('events.ndjson', events.map((e) => JSON.stringify(e)).join('\n'));
    const source = await openSource(path);
    expect(source.kind).toBe('anthropic-events');
    expect(blockSummary(await decodeSource(source))).toEqual(expected());
  });
});

describe('HAR files', () => {
  const entry = (url: string, mimeType: string, text: string, encoding?: 'base64') => ({
    startedDateTime: '2026-03-01T12:00:00.000Z',
    time: 50,
    request: {
      method: 'POST',
      url,
      httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Authorization', value: 'Bearer x' }],
      postData: { mimeType: 'application/json', text: '{"user_prompt":"hi"}' },
    },
    response: {
      status: 200,
      statusText: 'OK',
      headers: [{ name: 'Content-Type', value: mimeType }],
      content: { size: text.length, mimeType, text, ...(encoding ? { encoding } : {}) },
    },
    timings: { send: 1, wait: 9, receive: 40 },
  });
  const har = (entries: unknown[]) =>
    JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, pages: [], entries } }, null, 2);
  const run = Buffer.from(readFixture('frontend_tools.json.sse')).toString('utf8');
  const resume = Buffer.from(readFixture('frontend_tools_resume.json.sse'));

  const manyPath = () =>
    file(
      'many.har',
      har([
        entry('http://h/agent/sessions', 'application/json', '[]'),
        entry('http://h/agent/run', 'text/event-stream', run),
        entry('http://h/agent/tool_results', 'text/event-stream; charset=utf-8', resume.toString('base64'), 'base64'),
      ]),
    );

  it('lists every entry to choose from when several are event streams and none is chosen', async () => {
    const error = await expectImportError(await manyPath(), /holds 2 text\/event-stream entries; choose one/);
    expect(error).toBeInstanceOf(HarEntryChoiceError);
    expect((error as HarEntryChoiceError).entries.map((e) => [e.index, e.url, e.isEventStream])).toEqual([
      [0, 'http://h/agent/sessions', false],
      [1, 'http://h/agent/run', true],
      [2, 'http://h/agent/tool_results', true],
    ]);
    expect(error.message).toContain('#2 POST http://h/agent/tool_results → 200 text/event-stream; charset=utf-8');
  });

  it('opens the chosen entry (base64 body) with its request, response and exact bytes', async () => {
    const source = await openSource(await manyPath(), { harEntry: 2 });
    expect(source.kind).toBe('har');
    expect(source.legs).toHaveLength(1);
    expect(source.legs[0]?.request).toMatchObject({
      method: 'POST',
      url: 'http://h/agent/tool_results',
      body: '{"user_prompt":"hi"}',
    });
    expect(source.legs[0]?.response?.status).toBe(200);
    const [chunks = []] = await readLegs(source);
    expect(concatChunks(chunks).equals(resume)).toBe(true);
    expect(chunks[0]?.receivedAt).toBe(Date.parse('2026-03-01T12:00:00.000Z') + 10);
    expect(source.harEntries).toHaveLength(3);
  });

  it('opens several entries as the legs of one session, the continuation decoding as leg 1', async () => {
    const source = await openSource(await manyPath(), { harEntry: [1, 2] });
    const decoded = await decodeSource(source);
    expect(decoded.formats).toEqual(['json', 'json']);
    expect(decoded.envelopes.some((e) => e.leg === 1)).toBe(true);
    expect(blockSummary(decoded).map((b) => b.kind)).toContain('awaiting_frontend_tools');
  });

  it('takes the only event-stream entry without being asked', async () => {
    const path = await file(
      'one.har',
      har([
        entry('http://h/agent/sessions', 'application/json', '[]'),
        entry('http://h/agent/run', 'text/event-stream', run),
      ]),
    );
    const source = await openSource(path);
    const [chunks = []] = await readLegs(source);
    expect(concatChunks(chunks).toString('utf8')).toBe(run);
  });

  it.each([
    [
      'has no event-stream entry',
      () => har([entry('http://h/x', 'application/json', '{}')]),
      /holds no text\/event-stream entry \(1 entries:\n {2}#0 POST http:\/\/h\/x/,
    ],
    ['has no log.entries', () => JSON.stringify({ log: { version: '1.2' } }), /must hold log.entries/],
    [
      'has a body marked base64 that is not',
      () => har([entry('http://h/agent/run', 'text/event-stream', '%%%%', 'base64')]),
      /not valid base64/,
    ],
  ])('rejects a HAR file that %s', async (_name, content, message) => {
    await expectImportError(await file(`bad-${Math.random()}.har`, content()), message);
  });

  it('rejects a choice that is not an entry', async () => {
    await expect(openSource(await manyPath(), { harEntry: 7 })).rejects.toThrow('has no entry #7 (it has 3');
  });

  it('reads the entries of a truncated HAR file that came before the cut', async () => {
    const text = har([
      entry('http://h/agent/run', 'text/event-stream', run),
      entry('http://h/agent/other', 'text/event-stream', run),
    ]);
    const path = await file('truncated.har', text.slice(0, text.lastIndexOf('http://h/agent/other')));
    const source = await openSource(path);
    expect(source.harEntries).toHaveLength(1);
    expect(source.diagnostics.map((d) => d.rule)).toEqual(['import.truncated']);
  });
});

describe('recordings', () => {
  it('a two-leg recording of the frontend-tools round trip decodes both legs', async () => {
    const path = join(dir, 'round-trip.recording');
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
    const path = join(dir, 'damaged.recording');
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

describe('corrupt and unknown files', () => {
  it.each([
    [
      'binary garbage',
      Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]),
      /not a recording, SSE capture, NDJSON\/JSON of envelopes or Anthropic events, a streamed JSON array of API responses, or HAR: first bytes were binary data$/,
    ],
    ['an empty file', '', /the file is empty/],
    ['an HTML login page', '<!DOCTYPE html>\n<html><body>Sign in</body></html>', /first bytes were an HTML page$/],
    [
      'a JSON array of numbers',
      '[1, 2, 3]',
      /a JSON array, but its items are not an envelope .* or an Anthropic event/,
    ],
    ['NDJSON of unrelated objects', '{"id":1,"name":"x"}\n{"id":2}\n', /JSON lines, but the first is not an envelope/],
    ['a truncated first JSON line', '{"type":"text","agent":"a","fin', /its first line is not a JSON object/],
  ])('rejects %s, naming what was expected', async (_name, content, message) => {
    await expectImportError(await file(`corrupt-${Math.random()}`, content), message);
  });

  it('NDJSON: skips a garbage line with its line number, passes a broken object on to the decoder, reports a cut last line', async () => {
    const lines = dataLines('json_stream.json.sse').slice(0, 5);
    const text = [
      lines[0],
      lines[1],
      '\u0001\u0002 garbage',
      lines[2],
      '{"type":"text","agent":',
      lines[3],
      lines[4]?.slice(0, 20),
    ].join('\n');
    const path = await file('mixed.ndjson', text);
    const source = await openSource(path);
    const decoded = await decodeSource(source);
    expect(source.diagnostics.map((d) => [d.rule, d.at.line])).toEqual([
      ['import.skipped-item', 3],
      ['import.truncated', 7],
    ]);
    expect(source.diagnostics[0]?.message).toContain('Line 3 (byte');
    expect(decoded.diagnostics.map((d) => d.rule)).toContain('json.invalid');
  });

  it('a JSON array: skips a number item, reports the truncation, keeps the items before it', async () => {
    const items = dataLines('json_stream.json.sse').slice(0, 4);
    const text = `[${items[0]}, 42, ${items[1]}, ${items[2]}, ${items[3]?.slice(0, 30)}`;
    const path = await file('cut.json', text);
    const source = await openSource(path);
    const [chunks = []] = await readLegs(source);
    expect(chunks).toHaveLength(3);
    expect(source.diagnostics.map((d) => d.rule)).toEqual(['import.skipped-item', 'import.truncated']);
    expect(source.diagnostics[0]?.message).toMatch(/^Array item 1 \(byte \d+\) is a number, not an event; skipped\.$/);
  });

  it('reports each finding once however often the chunks are read', async () => {
    const path = await file('twice.ndjson', `${dataLines('json_stream.json.sse')[0]}\n42\n`);
    const source = await openSource(path);
    await readLegs(source);
    await readLegs(source);
    expect(source.diagnostics).toHaveLength(1);
  });
});
