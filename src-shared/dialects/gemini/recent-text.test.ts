import { describe, expect, it, test } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeBytes } from '../../pipeline/session-decoder';
import { frameChunks } from '../../sse/collect';
import { RecentTextChunk } from './recent-text';

const chunk = (text: string, output: number, extra = '') =>
  `{"candidates":[{"content":{"parts":[{"text":${JSON.stringify(text)}}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":${output},"totalTokenCount":${9 + output}${extra}},"modelVersion":"gemini-x","responseId":"r1"}`;

function learnt(): RecentTextChunk {
  const reader = new RecentTextChunk();
  reader.learn(chunk('Hello', 2), 'Hello');
  return reader;
}

describe('reading a chunk like the last one learnt, without JSON.parse', () => {
  it('reads another text and other token counts exactly as JSON.parse does', () => {
    const reader = learnt();
    for (const [text, output] of [
      [' world', 3],
      ['"quoted" \\ \n 日本 😀', 12345],
      ['x', 0],
    ] as const) {
      const data = chunk(text, output);
      expect(reader.read(data), data).toBe(true);
      const parsed = JSON.parse(data) as { usageMetadata: unknown };
      expect(reader.text).toBe(text);
      expect(JSON.parse(reader.usageText)).toEqual(parsed.usageMetadata);
    }
  });

  test.each([
    ['an empty text', chunk('', 3)],
    ['a usage with another member', chunk('Hi', 3, ',"thoughtsTokenCount":5')],
    [
      'an integer with a leading zero (no JSON)',
      chunk('Hi', 3).replace('"candidatesTokenCount":3', '"candidatesTokenCount":03'),
    ],
    ['a digit where the learnt usage has none', chunk('Hi', 3).replace('"promptTokenCount"', '"promptTokenCount1"')],
    ['another response', chunk('Hi', 3).replace('"r1"', '"r2"')],
    ['a finishReason', chunk('Hi', 3).replace('"index":0}', '"index":0,"finishReason":"STOP"}')],
    ['a thought', chunk('Hi', 3).replace('{"text":"Hi"}', '{"text":"Hi","thought":true}')],
    ['a text string that does not end', chunk('Hi', 3).slice(0, 50)],
    ['an invalid escape in the text', chunk('Hi', 3).replace('"Hi"', '"H\\qi"')],
  ])('declines %s: the chunk is parsed', (_name, data) => {
    expect(learnt().read(data)).toBe(false);
  });

  it('learns nothing from a chunk whose text it cannot find', () => {
    const reader = new RecentTextChunk();
    reader.learn(chunk('Hello', 2), 'Other');
    expect(reader.read(chunk('Hello', 3))).toBe(false);
  });

  it('the API own spacing ("text": "…") is learnt and read too', () => {
    const bytes = readExternalFixture('vercel-ai/gemini-3.7-flash.crlf.sse');
    const [first] = frameChunks([bytes]).frames;
    const reader = new RecentTextChunk();
    reader.learn(first?.data ?? '', 'fixture ok');
    expect(
      reader.read(
        (first?.data ?? '')
          .replace('"fixture ok"', '"more"')
          .replace('"totalTokenCount": 103', '"totalTokenCount": 104'),
      ),
    ).toBe(true);
    expect(reader.text).toBe('more');
  });

  it('a stream read this way decodes to what parsing every chunk gives: the text whole, the last usage', () => {
    const stream = [chunk('The ', 1), chunk('capital ', 2), chunk('is Paris.', 3)]
      .concat([
        '{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":4},"modelVersion":"gemini-x","responseId":"r1"}',
      ])
      .map((data) => `data: ${data}\r\n\r\n`)
      .join('');
    const result = decodeBytes(new TextEncoder().encode(stream));
    expect(result.diagnostics).toEqual([]);
    expect(result.blocks.map((b) => b.kind)).toEqual(['text', 'message']);
    expect(result.blocks[0]?.content).toBe('The capital is Paris.');
    expect(result.blocks[1]?.parsed).toMatchObject({ usage: { output_tokens: 4, candidatesTokenCount: 4 } });
    const middle = decodeBytes(
      new TextEncoder().encode(`data: ${chunk('The ', 1)}\r\n\r\ndata: ${chunk('capital ', 2)}\r\n\r\n`),
    );
    expect(middle.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      usage: { candidatesTokenCount: 2 },
    });
  });
});
