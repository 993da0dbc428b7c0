import { describe, expect, test } from 'vitest';
import { readUnknownFixture } from '../../../src-main/testing/fixtures';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { Envelope } from '../../envelope/types';

/**
 * Streams of real APIs no dialect knows, recorded by other projects' test suites
 * (resources/fixtures/unknown/README.md): each is shown event by event as the fallback, with
 * no claim the inspector cannot back, and no word of what the model said lost — the events
 * keep it in their members, where a filter or the timeline reads it.
 */

type Member = (e: Envelope) => unknown;
/**
 * A member of the event's data, read from the data itself (the envelope's delta, verbatim):
 * Cohere's text is in a member named `delta`, which the extras leave to the envelope's own.
 */
const at =
  (...path: (string | number)[]): Member =>
  (e) =>
    path.reduce<unknown>(
      (v, key) => (v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[key] : undefined),
      e.delta.startsWith('{') ? JSON.parse(e.delta) : undefined,
    );

const RECORDED: readonly {
  file: string;
  types: readonly string[];
  text: Member;
  said: string;
  status: string;
}[] = [
  {
    file: 'cohere-v2-text.data-only.sse',
    types: ['message-start', 'content-start', 'content-delta', 'content-end', 'message-end'],
    text: at('delta', 'message', 'content', 'text'),
    said: 'The capital of France is Paris.',
    status: 'ended',
  },
  {
    file: 'openai-completion-text.data-only.sse',
    types: ['text_completion', '[DONE]'],
    text: at('choices', 0, 'text'),
    said: 'The holiday is called "Gratitude Day" and it is a day dedicated to',
    status: 'done',
  },
  {
    file: 'bedrock-converse-text.chunks.jsonl',
    types: ['message'],
    text: at('contentBlockDelta', 'delta', 'text'),
    said: 'Let me count the "r"s in "strawberry":\n\ns-t-**r**-a-w-b-e-**r**-**r**-y\n\nThere are **3** r\'s in "strawberry."',
    status: 'ended',
  },
];

describe('recorded streams of APIs no dialect knows', () => {
  test.each(RECORDED)('$file: JSON events, no finding but the fallback info, its text kept', (recorded) => {
    const result = decodeBytes(readUnknownFixture(recorded.file));
    expect(result.formats).toEqual(['json-events']);
    expect(result.detections).toEqual([{ by: 'fallback', data: 'json' }]);
    expect(result.blocks).toEqual([]);
    expect(result.diagnostics.map((d) => `${d.severity} ${d.rule}`)).toEqual(['info stream.format-undetected']);
    expect([...new Set(result.envelopes.map((e) => e.type))]).toEqual(recorded.types);
    const said = result.envelopes
      .map(recorded.text)
      .filter((t) => typeof t === 'string')
      .join('');
    expect(said).toBe(recorded.said);
    const status = endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) });
    expect(status.label).toBe(recorded.status);
    // Nothing said of the stream that only a dialect could know.
    expect(status.reason).not.toMatch(/truncat|error|without /i);
  });
});
