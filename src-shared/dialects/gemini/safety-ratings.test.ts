import { describe, expect, it } from 'vitest';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';

/** A Gemini SSE stream (CRLF framed, as the API frames it) of these chunks. */
const stream = (...chunks: unknown[]) =>
  decodeBytes(encodeUtf8(chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join('')));
const finding = (result: ReturnType<typeof stream>, rule: string) =>
  result.diagnostics.find((d) => d.rule === rule)?.message;
const rating = (category: string, probability: string, more: Record<string, unknown> = {}) => ({
  category,
  probability,
  ...more,
});

describe('what blocked a Gemini answer or prompt, from its safety ratings', () => {
  it('a SAFETY finish names the category rated blocked, with its probability', () => {
    expect(finding(decodeBytes(readProviderFixture('gemini/safety.sse')), 'gemini.finish-incomplete')).toBe(
      'Candidate 0 finished with SAFETY (blocked for HARM_CATEGORY_DANGEROUS_CONTENT: probability HIGH): its output stops short of its natural end.',
    );
  });

  it("Vertex AI's severity beside the probability; a prompt blocked for SAFETY names its blocked ratings", () => {
    const safetyRatings = [
      rating('HARM_CATEGORY_HATE_SPEECH', 'NEGLIGIBLE'),
      rating('HARM_CATEGORY_HARASSMENT', 'MEDIUM', { severity: 'HARM_SEVERITY_MEDIUM', blocked: true }),
    ];
    const blocked = stream({ promptFeedback: { blockReason: 'SAFETY', safetyRatings }, responseId: 'r1' });
    expect(finding(blocked, 'gemini.prompt-blocked')).toBe(
      'The prompt was blocked (promptFeedback.blockReason SAFETY; blocked for HARM_CATEGORY_HARASSMENT: probability MEDIUM, severity HARM_SEVERITY_MEDIUM); nothing was generated.',
    );
  });

  it('must not: ratings none of which blocked add nothing, nor does a finish without ratings', () => {
    const candidate = (extra: Record<string, unknown>) => ({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, index: 0, finishReason: 'SAFETY', ...extra }],
      responseId: 'r1',
    });
    for (const extra of [{ safetyRatings: [rating('HARM_CATEGORY_HATE_SPEECH', 'LOW')] }, {}])
      expect(finding(stream(candidate(extra)), 'gemini.finish-incomplete')).toBe(
        'Candidate 0 finished with SAFETY: its output stops short of its natural end.',
      );
    expect(
      finding(stream({ promptFeedback: { blockReason: 'OTHER' }, responseId: 'r1' }), 'gemini.prompt-blocked'),
    ).toBe('The prompt was blocked (promptFeedback.blockReason OTHER); nothing was generated.');
  });
});
