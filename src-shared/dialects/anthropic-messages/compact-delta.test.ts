import { describe, expect, it } from 'vitest';
import { CompactTextDelta } from './compact-delta';

/** What the dialect reads from the event through JSON.parse: index, kind and text, or undefined when it is no such delta. */
function byJsonParse(data: string): { index: number; thinking: boolean; text: string } | undefined {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    return undefined;
  }
  const { index, delta } = event as { index?: unknown; delta?: { type?: unknown; text?: unknown; thinking?: unknown } };
  if (typeof index !== 'number' || !Number.isInteger(index) || !delta) return undefined;
  if (delta.type === 'text_delta' && typeof delta.text === 'string')
    return { index, thinking: false, text: delta.text };
  if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string')
    return { index, thinking: true, text: delta.thinking };
  return undefined;
}

function read(data: string): { index: number; thinking: boolean; text: string } | undefined {
  const reader = new CompactTextDelta();
  return reader.read(data) ? { index: reader.index, thinking: reader.thinking, text: reader.text } : undefined;
}

const text = (index: string, body: string): string =>
  `{"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":"${body}"}}`;
const thinking = (index: string, body: string): string =>
  `{"type":"content_block_delta","index":${index},"delta":{"type":"thinking_delta","thinking":"${body}"}}`;

describe('CompactTextDelta', () => {
  it('reads the compact text and thinking deltas the API writes, exactly as JSON.parse does', () => {
    const accepted = [
      text('0', 'Hello'),
      text('12', ''),
      text('7', 'a much longer delta of plain ASCII text that is well over sixty-four characters long'),
      thinking('3', 'Let me think — 数据 and émoji 😀'),
      text('0', 'line\\nbreak and a \\"quote\\" and \\u00e9 and \\\\'),
      text('0', 'a\\"}}'),
      text('999999999', 'x'),
      text('1234567890', 'Hi'),
    ];
    for (const data of accepted) {
      expect(read(data), data).toEqual(byJsonParse(data));
      expect(read(data), data).toBeDefined();
    }
  });

  it('declines everything else, so that the dialect parses it (valid or not) as before', () => {
    const declined = [
      // Valid JSON in another form.
      '{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"Hi"}}',
      '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}',
      '{"type":"content_block_delta","index":0,"delta":{"text":"Hi","type":"text_delta"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi","extra":1}}',
      '{"type":"content_block_delta","index":1.5,"delta":{"type":"text_delta","text":"Hi"}}',
      '{"type":"content_block_delta","index":1e2,"delta":{"type":"text_delta","text":"Hi"}}',
      '{"type":"content_block_delta","index":-1,"delta":{"type":"text_delta","text":"Hi"}}',
      text('1234567890123456', 'Hi'),
      // Not JSON at all.
      text('01', 'Hi'),
      text('0', 'raw "quote'),
      text('0', 'raw\ncontrol'),
      text('0', 'trailing backslash\\'),
      text('0', 'bad escape \\x'),
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}} ',
      '{"type":"content_block_delta","index":',
      '{"type":"content_block_delta","index":0',
    ];
    for (const data of declined) expect(read(data), data).toBeUndefined();
  });

  it('never reads what JSON.parse reads differently (seeded variations of a delta)', () => {
    const pieces = [
      'a',
      ' ',
      '"',
      '\\',
      '\\"',
      '\\n',
      '\\u0041',
      '\\ud83d\\ude00',
      'é',
      '数',
      '\n',
      '\t',
      '}',
      '}}',
      '{',
      'x'.repeat(20),
    ];
    let seed = 17;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      let body = '';
      for (let k = next(6); k > 0; k--) body += pieces[next(pieces.length)];
      const data = (next(2) === 0 ? text : thinking)(String(next(30)), body);
      const got = read(data);
      if (got !== undefined) expect(got, data).toEqual(byJsonParse(data));
      // eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
      else if (!/["\\\u0000-\u001f]/.test(body)) expect.fail(`declined a plain delta: ${data}`);
    }
  });
});
