import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../testing/fixtures';
import { openSource } from './index';
import { blockSummary, concatChunks, dataLines, decodeSource, readLegs, tempFiles } from './testing';

const { file } = tempFiles();

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
