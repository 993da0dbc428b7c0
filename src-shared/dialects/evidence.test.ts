import { describe, expect, it, test } from 'vitest';
import { providerFixturePath } from '../../src-main/testing/fixtures';
import { readFileSync } from 'node:fs';
import { blockEndFacts, endStatusOf } from '../pipeline/end-status';
import { createCollectingSession, createSessionDecoder } from '../pipeline/session-decoder';
import type { DecodeResult, FormatChoice } from '../pipeline/types';
import { encodeUtf8 } from '../text/utf8';
import { matchEvidence, urlPathOf, type ExchangeHints } from './evidence';
import { DIALECT_REGISTRY } from './registry';

const idOf = (hints: ExchangeHints) => matchEvidence(DIALECT_REGISTRY.modules, hints)?.module.id;

function decodeLeg(bytes: Uint8Array, hints: ExchangeHints, format?: FormatChoice): DecodeResult {
  const session = createCollectingSession(format ? { format } : {});
  session.decodeLeg([{ bytes }], hints);
  return session.finish();
}

const statusOf = (result: DecodeResult) =>
  endStatusOf({ stream: result.ends.at(-1)?.stream ?? null, ...blockEndFacts(result.blocks, 0) });

const undecidable = encodeUtf8(['{"kind":"tick"}', 'plain text'].map((d) => `data: ${d}\n\n`).join(''));

describe('urlPathOf', () => {
  test.each([
    ['https://api.anthropic.com/v1/messages', '/v1/messages'],
    ['https://proxy.example/anthropic/v1/messages/?beta=true#x', '/anthropic/v1/messages'],
    [
      '/v1beta/models/gemini-2.5-pro%3AstreamGenerateContent?alt=sse',
      '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
    ],
    ['http://127.0.0.1:8000', ''],
    ['', ''],
  ])('%s → %s', (url, path) => {
    expect(urlPathOf(url)).toBe(path);
  });
});

describe('the evidence the built-in dialects declare', () => {
  test.each([
    ['https://api.anthropic.com/v1/messages', 'anthropic-messages'],
    ['https://api.openai.com/v1/responses', 'openai-responses'],
    // The upstream agent's endpoints name its three formats; JSON envelopes, its default, come first.
    ['http://127.0.0.1:8000/agent/run?format=xml', 'json'],
    ['http://127.0.0.1:8000/agent/tool_results', 'json'],
    ['http://127.0.0.1:8000/v1/messages/count_tokens', undefined],
    ['http://127.0.0.1:8000/feed', undefined],
  ])('%s → %s', (url, id) => {
    expect(idOf({ url })).toBe(id);
  });

  it('a header names nothing no dialect declares, whatever the URL', () => {
    expect(idOf({ headers: [['content-type', 'text/event-stream']] })).toBeUndefined();
  });
});

describe('hints decide only where the bytes are undecided', () => {
  it('events no dialect claims, from a URL a dialect declares: that dialect, and the finding says why', () => {
    const result = decodeLeg(undecidable, { url: 'https://api.openai.com/v1/responses' });
    expect(result.formats).toEqual(['openai-responses']);
    expect(result.detections).toEqual([{ by: 'url', detail: '/v1/responses' }]);
    expect(result.diagnostics.find((d) => d.rule === 'stream.format-undetected')?.message).toBe(
      "All 2 events match no dialect's own markers; the URL's path /v1/responses names OpenAI Responses API, so they are decoded as that.",
    );
  });

  it("the bytes win: an Anthropic stream from an OpenAI URL is the Anthropic API's", () => {
    const bytes = readFileSync(providerFixturePath('anthropic-messages/text-citations.sse'));
    const result = decodeLeg(bytes, { url: 'https://api.openai.com/v1/responses' });
    expect(result.formats).toEqual(['anthropic-messages']);
    expect(result.detections).toEqual([{ by: 'content' }]);
    expect(statusOf(result).kind).toBe('done');
  });

  it('the choice wins over both', () => {
    const result = decodeLeg(undecidable, { url: 'https://api.openai.com/v1/responses' }, 'json-events');
    expect(result.detections).toEqual([{ by: 'chosen', data: 'mixed' }]);
  });

  it('response headers given after the leg opened still count (they arrive after the request URL)', () => {
    const decoder = createSessionDecoder({});
    const leg = decoder.startLeg({ hints: { url: 'http://127.0.0.1:9/feed' } });
    leg.hint({ headers: [['content-type', 'text/event-stream']] });
    leg.hint({ url: 'http://127.0.0.1:9/v1/messages' });
    leg.push(undecidable);
    expect(leg.end().detection).toEqual({ by: 'url', detail: '/v1/messages' });
  });

  it('an empty body from an endpoint whose protocol ends with its own event is truncated, not "ended"', () => {
    const empty = new Uint8Array(0);
    expect(statusOf(decodeLeg(empty, { url: 'https://api.anthropic.com/v1/messages' })).kind).toBe('truncated');
    expect(statusOf(decodeLeg(empty, { url: 'http://127.0.0.1:9/feed' })).kind).toBe('ended');
  });

  it('an empty leg after a leg of a known dialect is measured by that dialect: truncated', () => {
    const session = createCollectingSession();
    session.decodeLeg([{ bytes: encodeUtf8('data: {"type":"text","agent":"a","final":true,"delta":"x"}\n\n') }]);
    session.decodeLeg([{ bytes: new Uint8Array(0) }]);
    const result = session.finish();
    expect(result.ends[1]?.stream.transportOnly).toBeUndefined();
    expect(endStatusOf({ stream: result.ends[1]?.stream ?? null, ...blockEndFacts(result.blocks, 1) }).kind).toBe(
      'truncated',
    );
  });

  it('no hint at all: the fallback, said as such', () => {
    expect(decodeLeg(undecidable, {}).detections).toEqual([{ by: 'fallback', data: 'mixed' }]);
  });
});
