import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { PROVIDER_APIS } from '../demo-agent/providers';
import { externalFixturePath, readExternalFixture } from '../../testing/fixtures';
import { openSource } from './index';
import { blockSummary, concatChunks, decodeSource, readLegs } from './testing';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'json-stream-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The demo's Gemini scenario as the API sends it without alt=sse: one JSON array, pretty-printed, CRLF. */
function geminiArrayBody(scenarioId: string): string {
  const api = PROVIDER_APIS.find((a) => a.dialect === 'gemini');
  const wire = api?.alternateWire;
  const scenario = api?.scenarios.find((s) => s.id === scenarioId);
  if (!wire || !scenario) throw new Error('no Gemini JSON array wire');
  return scenario.events.map((event, index) => wire.encode(event, index)).join('') + wire.close;
}

describe('a response body streamed as one JSON array (Gemini without alt=sse)', () => {
  it('opens as one leg of exactly the file bytes, decoded element by element as the live body is', async () => {
    const path = externalFixturePath('vercel-ai/gemini-streamed-args.json-array.json');
    const source = await openSource(path);
    expect(source.kind).toBe('json-stream');
    expect(source.diagnostics).toEqual([]);
    const [chunks = []] = await readLegs(source);
    expect(
      concatChunks(chunks).equals(Buffer.from(readExternalFixture('vercel-ai/gemini-streamed-args.json-array.json'))),
    ).toBe(true);
    const decoded = await decodeSource(source);
    expect(decoded.formats).toEqual(['gemini']);
    expect(blockSummary(decoded)).toEqual(
      blockSummary(decodeBytes(readExternalFixture('vercel-ai/gemini-streamed-args.json-array.json'))),
    );
  });

  it('a pretty-printed array decodes to the same blocks as the SSE stream of the same responses', async () => {
    const path = join(dir, 'code-execution.json');
    await writeFile(path, geminiArrayBody('code-execution'));
    const decoded = await decodeSource(await openSource(path));
    expect(decoded.diagnostics.map((d) => d.rule)).toEqual([]);
    const api = PROVIDER_APIS.find((a) => a.dialect === 'gemini');
    const scenario = api?.scenarios.find((s) => s.id === 'code-execution');
    const sse = scenario?.events.map((e) => api?.encode?.(e) ?? '').join('') ?? '';
    expect(blockSummary(decoded)).toEqual(blockSummary(decodeBytes(Buffer.from(sse))));
  });

  it('must not: a JSON array of objects no dialect claims is still refused, naming what was expected', async () => {
    const path = join(dir, 'other.json');
    await writeFile(path, '[{"name":"x"}]');
    await expect(openSource(path)).rejects.toThrow(/its first item is not an envelope/);
  });
});

describe('a file holding one JSON object pretty-printed (a whole response body saved, not a stream)', () => {
  const body = {
    candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, finishReason: 'STOP', index: 0 }],
    modelVersion: 'gemini-2.0-flash',
    responseId: 'r1',
  };

  it('opens as one leg of exactly the file bytes, the object one event of its dialect, the file said to be no stream', async () => {
    const text = `${JSON.stringify(body, null, 2)}\n`;
    const path = join(dir, 'generate-content.json');
    await writeFile(path, text);
    const source = await openSource(path);
    expect(source.kind).toBe('json-stream');
    const [chunks = []] = await readLegs(source);
    expect(concatChunks(chunks).toString()).toBe(text);
    const decoded = await decodeSource(source);
    expect(decoded.formats).toEqual(['gemini']);
    expect(decoded.diagnostics.map((d) => d.rule)).toEqual(['json-array.object-body']);
  });

  it('an object no dialect claims is one JSON event', async () => {
    const other = join(dir, 'other-object.json');
    await writeFile(other, JSON.stringify({ name: 'x', list: [1, 2] }, null, 2));
    const decoded = await decodeSource(await openSource(other));
    expect(decoded.formats).toEqual(['json-events']);
    expect(decoded.diagnostics.map((d) => d.rule)).toEqual(['json-array.object-body', 'stream.format-undetected']);
  });

  it('must not: NDJSON of the same objects stays one event per line, with no such finding', async () => {
    const path = join(dir, 'chunks.ndjson');
    await writeFile(path, `${JSON.stringify(body)}\n${JSON.stringify(body)}\n`);
    const source = await openSource(path);
    expect(source.kind).toBe('ndjson-events');
    const decoded = await decodeSource(source);
    expect(decoded.diagnostics.map((d) => d.rule)).not.toContain('json-array.object-body');
  });
});
