import { describe, expect, it, test } from 'vitest';
import { readExternalFixture } from '../../src-main/testing/fixtures';
import { decodeEveryChunking } from '../../src-main/testing/provider-streams';
import { frameChunks } from '../sse/collect';
import { encodeUtf8 } from '../text/utf8';
import { blockEndFacts, endStatusOf } from './end-status';
import { isCompleteEventData } from './last-event';
import { decodeLegs } from './session-decoder';
import type { DecodeResult } from './types';

/** A real data-only Anthropic capture (an SDK test suite's), as saved captures often end. */
const whole = new TextDecoder().decode(readExternalFixture('vercel-ai/anthropic-text.data-only.sse'));
const endings = [
  ['a line ending but no blank line', whole.slice(0, -1)],
  ['no line ending at all', whole.slice(0, -2)],
  ['CRLF and no blank line', `${whole.slice(0, -2)}\r\n`],
] as const;

const decodeText = (text: string): DecodeResult => decodeLegs([[{ bytes: encodeUtf8(text) }]]);
const statusOf = (result: DecodeResult): string =>
  endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).kind;
const rulesOf = (result: DecodeResult): string[] => result.diagnostics.map((d) => d.rule);

describe('a last event with no blank line after it', () => {
  test.each(endings)('%s: message_stop is decoded, the stream ended done, with one warning', (_name, text) => {
    const result = decodeText(text);
    expect(rulesOf(result)).toEqual(['sse.unterminated-last-event']);
    const finding = result.diagnostics[0];
    expect(finding?.severity).toBe('warning');
    expect(finding?.at).toMatchObject({ frame: 11, byteEnd: encodeUtf8(text).length });
    expect(finding?.message).toContain('An EventSource drops such an event');
    expect(result.ends[0]?.stream).toMatchObject({
      terminal: { event: 'message_stop', frame: 11 },
      cutMidEvent: false,
      frames: 12,
    });
    expect(statusOf(result)).toBe('done');
  });

  test.each(endings)('%s: the same at every chunking', (_name, text) => {
    const [first, ...rest] = decodeEveryChunking(encodeUtf8(text));
    expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
  });

  it('an EventSource-equivalent framing (the frames command) still drops it, as WHATWG says', () => {
    const framed = frameChunks([encodeUtf8(endings[0][1])]);
    expect(framed.frames).toHaveLength(11);
    expect(framed.diagnostics.map((d) => d.rule)).toEqual(['sse.unterminated-event']);
    expect(framed.summary.endedInsideEvent).toBe(true);
  });

  it('must not decode a last event cut inside its data: lost, and the stream truncated', () => {
    const cut = whole.slice(0, -6);
    const result = decodeText(cut);
    expect(rulesOf(result)).toEqual(['sse.unterminated-event', 'provider.missing-terminal']);
    expect(result.frames[0]).toHaveLength(11);
    expect(statusOf(result)).toBe('truncated');
  });

  it('must not fire for a stream whose last event has its blank line', () => {
    expect(rulesOf(decodeText(whole))).toEqual([]);
  });

  it('works for every dialect: a JSON envelope stream ending in an unterminated [DONE] is done', () => {
    const envelope = (final: boolean, delta: string): string =>
      JSON.stringify({ type: 'text', agent: 'a', final, delta });
    const result = decodeText(`data: ${envelope(false, 'hi')}\n\ndata: ${envelope(true, '')}\n\ndata: [DONE]`);
    expect(rulesOf(result)).toEqual(['sse.unterminated-last-event']);
    expect(statusOf(result)).toBe('done');
  });
});

describe('isCompleteEventData', () => {
  test.each([
    ['[DONE]', true],
    ['{"type":"message_stop"}', true],
    ['  {"a":[1,2]}  ', true],
    ['<content-block-text>', true],
    ['{"type":"message_st', false],
    ['<content-block-text', false],
    ['', false],
    ['plain text', false],
  ])('%j → %s', (data, expected) => {
    expect(isCompleteEventData(data)).toBe(expected);
  });
});
