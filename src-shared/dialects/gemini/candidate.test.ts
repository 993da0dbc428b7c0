import { describe, expect, it } from 'vitest';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';

const stream = (...chunks: unknown[]) =>
  decodeBytes(encodeUtf8(chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('')));
const chunk = (parts: unknown[], extra: Record<string, unknown> = {}, index = 0) => ({
  candidates: [{ content: { role: 'model', parts }, index, ...extra }],
  responseId: 'r1',
});
const finish = (index = 0) => chunk([], { finishReason: 'STOP' }, index);
const PNG = { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } };

describe('the parts of a candidate', () => {
  it('an image between two texts is shown in the text block it appears in, which goes on after it', () => {
    const result = stream(chunk([{ text: 'Here:' }]), chunk([PNG]), chunk([{ text: ' done.' }]), finish());
    expect(rulesOf(result)).toEqual([]);
    expect(result.blocks[0]).toMatchObject({
      kind: 'text',
      content: 'Here: done.',
      images: [{ src: 'data:image/png;base64,iVBORw0KGgo=', mediaType: 'image/png' }],
    });
  });

  it('media that are no image (audio) are kept as a provider event with their size, not as an image', () => {
    const result = stream(chunk([{ inlineData: { mimeType: 'audio/wav', data: 'AAAA' } }]), finish());
    expect(result.blocks.filter((b) => b.images.length > 0)).toEqual([]);
    expect(result.envelopes.find((e) => e.type === 'inlineData')?.extras).toEqual({ mimeType: 'audio/wav', bytes: 3 });
  });

  it("a medium's size is what its base64 decodes to, padding not counted", () => {
    const result = stream(chunk([{ inlineData: { mimeType: 'audio/wav', data: 'AAA=' } }]), finish());
    expect(result.envelopes.find((e) => e.type === 'inlineData')?.extras).toEqual({ mimeType: 'audio/wav', bytes: 2 });
  });

  it('a code result without code before it is a result without a call', () => {
    const result = stream(chunk([{ codeExecutionResult: { outcome: 'OUTCOME_FAILED', output: 'boom' } }]), finish());
    expect(rulesOf(result)).toEqual(['tool.result-without-call']);
    expect(result.envelopes.find((e) => e.type === 'tool_result')?.unified?.phase).toBe('failed');
  });

  it('text and thought parts in one chunk are two blocks, in order', () => {
    const result = stream(chunk([{ text: 'Hmm.', thought: true }, { text: 'Yes.' }]), finish());
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([
      ['thinking', 'Hmm.'],
      ['text', 'Yes.'],
      ['message', expect.any(String)],
    ]);
  });

  it('two candidates (candidateCount 2) are two messages, each with its own agent; the stream is done once both finished', () => {
    const result = stream(chunk([{ text: 'A' }], {}, 0), chunk([{ text: 'B' }], {}, 1), finish(0), finish(1));
    expect(rulesOf(result)).toEqual([]);
    const texts = result.blocks.filter((b) => b.kind === 'text');
    expect(texts.map((b) => [b.agent, b.content])).toEqual([
      ['r1', 'A'],
      ['r1#1', 'B'],
    ]);
    expect(result.blocks.filter((b) => b.kind === 'message')).toHaveLength(2);
    expect(result.ends[0]?.stream.terminal?.frame).toBe(3);
  });

  it('must not: one candidate finished and the other cut is no finished stream', () => {
    const result = stream(chunk([{ text: 'A' }], {}, 0), chunk([{ text: 'B' }], {}, 1), finish(0));
    expect(rulesOf(result)).toContain('provider.missing-terminal');
    expect(result.ends[0]?.stream.terminal).toBeNull();
  });
});
