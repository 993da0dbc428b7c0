import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../src-shared/pipeline/session-decoder';
import { blockEndFacts, endStatusOf } from '../../../src-shared/pipeline/end-status';
import type { DecodeResult } from '../../../src-shared/pipeline/types';
import { externalFixturePath, readExternalFixture } from '../../testing/fixtures';
import { openSource } from './index';
import { decodeSource, readLegs, tempFiles } from './testing';

const { file } = tempFiles();

/** How the decoded stream ended, as the session's status says it. */
const statusOf = (result: DecodeResult) =>
  endStatusOf({ stream: result.ends.at(-1)?.stream ?? null, ...blockEndFacts(result.blocks, result.ends.length - 1) })
    .kind;

/** What two decodes of one stream must agree on: every envelope's type, agent and delta, in order. */
const envelopesOf = (result: DecodeResult) => result.envelopes.map((e) => [e.type, e.agent, e.delta]);

/**
 * A stream's events saved one JSON object per line, as SDK test suites record provider streams
 * (vercel/ai's `.chunks.txt` files, resources/fixtures/external): each line one SSE event, the
 * dialect detected from the events as for a capture of the stream itself.
 */
describe('NDJSON of stream events', () => {
  it("a Gemini stream's chunks (no final newline) decode as the same stream sent as SSE, done at its finishReason", async () => {
    const source = await openSource(externalFixturePath('vercel-ai/gemini-text.chunks.jsonl'));
    expect(source.kind).toBe('ndjson-events');
    expect(source.diagnostics).toEqual([]);
    const [chunks = []] = await readLegs(source);
    expect(chunks).toHaveLength(3);
    const decoded = await decodeSource(source);
    expect(decoded.formats).toEqual(['gemini']);
    expect(envelopesOf(decoded)).toEqual(
      envelopesOf(decodeBytes(readExternalFixture('vercel-ai/gemini-text.crlf.sse'))),
    );
    expect(decoded.blocks.find((b) => b.kind === 'text')?.content).toContain('in strawberry');
    expect(statusOf(decoded)).toBe('done');
  });

  it('Chat Completions chunks decode as the SSE capture did, and say the file holds no [DONE]', async () => {
    const source = await openSource(externalFixturePath('openai-chat/azure-content-filter.chunks.jsonl'));
    expect(source.kind).toBe('ndjson-events');
    const decoded = await decodeSource(source);
    expect(decoded.formats).toEqual(['openai-chat']);
    const capture = decodeBytes(readExternalFixture('openai-chat/azure-content-filter.sse'));
    // The capture's test server adds data: [DONE]; the chunks themselves are the same events.
    expect(envelopesOf(decoded)).toEqual(envelopesOf(capture).filter(([type]) => type !== '[DONE]'));
    expect(decoded.blocks.find((b) => b.kind === 'text')?.content).toBe('Capital of Denmark.');
    // Nothing is added: the stream's [DONE] is not in the file, and the status says so.
    expect(decoded.diagnostics.map((d) => d.rule)).toEqual(['stream.missing-done']);
    expect(statusOf(decoded)).toBe('truncated');
  });

  it("Ollama's native API saved as NDJSON opens as a file of stream events, decoded as the ollama dialect", async () => {
    for (const name of ['ollama/ollama-bash-lib-generate.ndjson', 'ollama/siumai-thinking-and-content.jsonl']) {
      const source = await openSource(externalFixturePath(name));
      expect(source.kind, name).toBe('ndjson-events');
      expect(source.diagnostics, name).toEqual([]);
      const decoded = await decodeSource(source);
      expect(decoded.formats, name).toEqual(['ollama']);
      // The same envelopes as the body decoded as it came (one line, one event).
      expect(envelopesOf(decoded), name).toEqual(envelopesOf(decodeBytes(readExternalFixture(name))));
      expect(statusOf(decoded), name).toBe('done');
    }
  });

  it('objects no dialect claims open as JSON events: each line an event, no block, no claim on how it ended', async () => {
    const path = await file('ticks.jsonl', '{"kind":"tick","n":1}\n{"kind":"tick","n":2}\r\n{"event":"done"}');
    const source = await openSource(path);
    expect(source.kind).toBe('ndjson-events');
    const decoded = await decodeSource(source);
    expect(decoded.formats).toEqual(['json-events']);
    expect(decoded.envelopes.map((e) => e.type)).toEqual(['message', 'message', 'done']);
    expect(decoded.blocks).toEqual([]);
    expect(decoded.diagnostics.map((d) => d.rule)).toEqual(['stream.format-undetected']);
    expect(statusOf(decoded)).toBe('ended');
  });

  it('a first line nested 100,000 deep opens as an event, its text whole (no recursion over it)', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const path = await file('deep.jsonl', `${deep}\n{"kind":"tick"}\n`);
    const source = await openSource(path);
    expect(source.kind).toBe('ndjson-events');
    const decoded = await decodeSource(source);
    expect(decoded.envelopes.map((e) => e.delta)).toEqual([deep, '{"kind":"tick"}']);
  });

  it('a line that is no JSON object is reported with its line and offset and skipped; the others decode', async () => {
    const path = await file('bad-line.jsonl', '{"kind":"tick","n":1}\n42\n{"kind":"tick","n":2}\n');
    const source = await openSource(path);
    const decoded = await decodeSource(source);
    expect(decoded.envelopes).toHaveLength(2);
    expect(source.diagnostics).toEqual([
      expect.objectContaining({
        rule: 'import.skipped-item',
        message: expect.stringContaining('(byte 22) is a number, not an event; skipped.') as unknown,
        at: { fileOffset: 22, line: 2 },
      }),
    ]);
  });
});
