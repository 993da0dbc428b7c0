import { describe, expect, it } from 'vitest';
import { readFixture } from '../../testing/fixtures';
import { HarEntryChoiceError, openSource } from './index';
import { blockSummary, concatChunks, decodeSource, expectImportError, readLegs, tempFiles } from './testing';

const { file } = tempFiles();

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
    const error = await expectImportError(await manyPath(), /holds 2 stream entries; choose one/);
    expect(error).toBeInstanceOf(HarEntryChoiceError);
    expect((error as HarEntryChoiceError).entries.map((e) => [e.index, e.url, e.isStream])).toEqual([
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
      /holds no stream entry \(text\/event-stream, NDJSON or a line-framed stream\) \(1 entries:\n {2}#0 POST http:\/\/h\/x/,
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
