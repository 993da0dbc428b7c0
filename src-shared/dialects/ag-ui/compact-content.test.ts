import { describe, expect, it } from 'vitest';
import { CompactContent } from './compact-content';
import { decodeAgUi, inRun } from './test-events';

describe('content read without JSON.parse', () => {
  it('reads the compact form, escapes included, and the next delta of a message through its head', () => {
    const reader = new CompactContent();
    expect(reader.read('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\\"1","delta":"a \\"b\\"\\n"}')).toBe(true);
    expect([reader.type, reader.messageId, reader.delta]).toEqual(['TEXT_MESSAGE_CONTENT', 'm"1', 'a "b"\n']);
    expect(reader.read('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\\"1","delta":"next"}')).toBe(true);
    expect([reader.type, reader.messageId, reader.delta]).toEqual(['TEXT_MESSAGE_CONTENT', 'm"1', 'next']);
    // The same head, but the event goes on after its delta: declined, and the next reads go on.
    expect(reader.read('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m\\"1","delta":"x","n":"y"}')).toBe(false);
    expect(reader.read('{"type":"REASONING_MESSAGE_CONTENT","messageId":"m\\"1","delta":"hm"}')).toBe(true);
    expect([reader.type, reader.messageId, reader.delta]).toEqual(['REASONING_MESSAGE_CONTENT', 'm"1', 'hm']);
    expect(reader.read('{"type":"TEXT_MESSAGE_CONTENT","messageId":"m-10","delta":"x"}')).toBe(true);
    expect([reader.type, reader.messageId]).toEqual(['TEXT_MESSAGE_CONTENT', 'm-10']);
  });

  it.each([
    ['another key order', '{"type":"TEXT_MESSAGE_CONTENT","delta":"x","messageId":"m"}'],
    ['whitespace', '{"type": "TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}'],
    ['a field after the delta', '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":1}'],
    ['a string field after the delta', '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","n":"y"}'],
    ['a delta that is no string', '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":5}'],
    ['a raw control character', '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\u0001"}'],
    ['another event', '{"type":"TEXT_MESSAGE_END","messageId":"m"}'],
  ])('declines %s (the event is parsed instead)', (_name, data) => {
    expect(new CompactContent().read(data)).toBe(false);
  });

  it('decodes a stream the same whether its content events are compact or not', () => {
    const events = (compact: boolean) =>
      inRun(
        'data: {"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}\n\n',
        compact
          ? 'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"Hello, \\u00e9"}\n\n'
          : 'data: {"delta":"Hello, \\u00e9","messageId":"m","type":"TEXT_MESSAGE_CONTENT"}\n\n',
        'data: {"type":"TEXT_MESSAGE_END","messageId":"m"}\n\n',
      );
    const shape = (compact: boolean) => decodeAgUi(events(compact)).blocks.map((b) => [b.kind, b.content]);
    expect(shape(true)).toEqual(shape(false));
    expect(shape(true)[0]).toEqual(['text', 'Hello, é']);
  });
});
