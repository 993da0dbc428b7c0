import { describe, expect, it, test } from 'vitest';
import { readUnknownFixture } from '../../src-main/testing/fixtures';
import { blockEndFacts, endStatusOf } from '../pipeline/end-status';
import { decodeBytes } from '../pipeline/session-decoder';
import type { DecodeResult } from '../pipeline/types';
import { encodeUtf8 } from '../text/utf8';
import { DIALECT_REGISTRY } from './registry';
import { sniffFrame } from './sniff';

/**
 * An error body alone (Chat Completions' `{"error": {"message": …}}` or `event: error`, the
 * Anthropic API's `{"type": "error", "error": {…}}`) is what any server or gateway may send: it
 * names its API only as a leg's first event (`claimsOnlyFirst`). After events no dialect
 * claimed (a LangGraph run, a llama.cpp `/completion` stream), it neither decides the leg nor
 * switches one shown as generic events, so those events are never "invalid chunks" and the
 * stream is never said to be Chat Completions.
 */

const event = (data: unknown, name = ''): string =>
  `${name ? `event: ${name}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
const decode = (...events: string[]): DecodeResult => decodeBytes(encodeUtf8(events.join('')));
const status = (result: DecodeResult): string =>
  endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).label;
/** Findings that say something is wrong (the fallback's info says only that no dialect claimed the leg). */
const claims = (result: DecodeResult): string[] =>
  result.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.rule);

/** A LangGraph API run (`POST /threads/{id}/runs/stream`) that failed: its `event: error` names the exception. */
const LANGGRAPH = [
  event({ run_id: '1ef4a9b8-0000-6000-8000-000000000001', attempt: 1 }, 'metadata'),
  event({ messages: [{ content: 'hi', type: 'human', id: 'm1' }] }, 'values'),
  event(
    { error: 'GraphRecursionError', message: 'Recursion limit of 25 reached without hitting a stop condition.' },
    'error',
  ),
];
/** llama.cpp's `/completion` stream: its chunks, then an error in OpenAI's shape, as its server sends one. */
const llamaChunk = (content: string): string =>
  event({ content, stop: false, id_slot: 0, multimodal: false, index: 0 });
const OPENAI_SHAPED_ERROR = event({ error: { code: 500, message: 'context shift is disabled', type: 'server_error' } });
const CHAT_CHUNK = event({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  model: 'gpt-test',
  choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }],
});

describe('an error after events no dialect claimed stays what the stream was shown as', () => {
  test.each([
    ['a LangGraph run ending in event: error', LANGGRAPH],
    [
      'llama.cpp chunks within the detection window, then an error object',
      [llamaChunk('a'), llamaChunk('b'), OPENAI_SHAPED_ERROR],
    ],
    [
      'llama.cpp chunks past the detection window, then an error object',
      [...'abcdefghij'].map(llamaChunk).concat(OPENAI_SHAPED_ERROR),
    ],
  ])('%s: JSON events, no invalid chunk, no error claimed, "ended"', (_name, events) => {
    const result = decode(...events);
    expect(result.formats).toEqual(['json-events']);
    expect(result.detections).toEqual([{ by: 'fallback', data: 'json' }]);
    expect(new Set(result.envelopes.map((e) => e.dialect))).toEqual(new Set(['json-events']));
    expect(claims(result)).toEqual([]);
    expect(status(result)).toBe('ended');
    // The error is still there, as the event it was.
    expect(result.envelopes.at(-1)?.delta).toBe(
      events
        .at(-1)
        ?.replace(/^(event: \w+\n)?data: /, '')
        .trimEnd(),
    );
  });

  it('a recorded Cohere stream with an error object after it is still not Chat Completions', () => {
    const bytes = new Uint8Array([
      ...readUnknownFixture('cohere-v2-text.data-only.sse'),
      ...encodeUtf8(OPENAI_SHAPED_ERROR),
    ]);
    const result = decodeBytes(bytes);
    expect(result.formats).toEqual(['json-events']);
    expect(claims(result)).toEqual([]);
  });

  it('detection: event: error claims only an error object, not LangGraph\'s {"error": "<exception name>"}', () => {
    const claimants = (data: string, name: string) =>
      DIALECT_REGISTRY.modules.filter((m) => m.detect(sniffFrame({ event: name, data }))).map((m) => m.id);
    expect(claimants('{"error":"GraphRecursionError","message":"limit"}', 'error')).toEqual([]);
    expect(claimants('{"error":{"message":"Overloaded"}}', 'error')).toEqual(['openai-chat']);
  });
});

describe('must not: an error the Chat Completions API sent is still read as one', () => {
  it('as the first event, before any chunk: Chat Completions, ended by error', () => {
    const result = decode(OPENAI_SHAPED_ERROR);
    expect(result.formats).toEqual(['openai-chat']);
    expect(claims(result)).toEqual(['provider.api-error']);
    expect(status(result)).toBe('ended by error');
  });

  it('event: error with an error object as the first event', () => {
    const result = decode(event({ error: { message: 'Overloaded' } }, 'error'));
    expect(result.formats).toEqual(['openai-chat']);
    expect(status(result)).toBe('ended by error');
  });

  it('after a chunk: the leg is Chat Completions already, and the error ends it', () => {
    const result = decode(CHAT_CHUNK, OPENAI_SHAPED_ERROR);
    expect(result.formats).toEqual(['openai-chat']);
    // (and the text it was streaming never closed: block.unterminated)
    expect(claims(result)).toContain('provider.api-error');
    expect(status(result)).toBe('ended by error');
  });

  it('a chunk after unclaimed events still decides the leg: the bytes win when they name the API', () => {
    const result = decode(llamaChunk('a'), OPENAI_SHAPED_ERROR, CHAT_CHUNK, event('[DONE]'));
    expect(result.formats).toEqual(['openai-chat']);
    expect(result.detections).toEqual([{ by: 'content' }]);
  });
});

/** The Anthropic Messages API's error event, as gateways in front of other models send it too. */
const ANTHROPIC_ERROR = event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error');

describe("the Anthropic API's error event: the same rule", () => {
  it('after events no dialect claimed (a recorded Cohere stream, a LangGraph run): JSON events, ended', () => {
    const cohere = decodeBytes(
      new Uint8Array([...readUnknownFixture('cohere-v2-text.data-only.sse'), ...encodeUtf8(ANTHROPIC_ERROR)]),
    );
    const langgraph = decode(LANGGRAPH[0] ?? '', ANTHROPIC_ERROR);
    for (const result of [cohere, langgraph]) {
      expect(result.formats).toEqual(['json-events']);
      expect(claims(result)).toEqual([]);
      expect(status(result)).toBe('ended');
    }
  });

  it('must not: as the first event, or after message_start, it is the API failing', () => {
    const first = decode(ANTHROPIC_ERROR);
    expect(first.formats).toEqual(['anthropic-messages']);
    expect(status(first)).toBe('ended by error');
    const started = decode(
      event(
        { type: 'message_start', message: { id: 'msg_1', model: 'claude-test', content: [], usage: {} } },
        'message_start',
      ),
      ANTHROPIC_ERROR,
    );
    expect(started.formats).toEqual(['anthropic-messages']);
    expect(claims(started)).toContain('provider.api-error');
    expect(status(started)).toBe('ended by error');
  });
});
