import { describe, expect, it } from 'vitest';
import { RecentTextDelta } from './recent-delta';

const delta = (text: string, sequence: number, tail = ''): string =>
  `{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"${text}"${tail},"sequence_number":${sequence}}`;

/** A reader that learnt the prefix of `delta` from `first`. */
function learnt(first = delta('Hi', 1)): RecentTextDelta<string> {
  const reader = new RecentTextDelta<string>();
  reader.learn(first, 'part 0:0');
  return reader;
}

function read(
  reader: RecentTextDelta<string>,
  data: string,
): { text: string; sequence: number | undefined } | undefined {
  return reader.read(data) ? { text: reader.text, sequence: reader.sequence } : undefined;
}

/** What JSON.parse reads from the event: its text and sequence number, when the rest is the learnt event's. */
function byJsonParse(data: string): { text: string; sequence: number | undefined } | undefined {
  try {
    const event = JSON.parse(data) as Record<string, unknown>;
    return typeof event['delta'] === 'string'
      ? { text: event['delta'], sequence: event['sequence_number'] as number | undefined }
      : undefined;
  } catch {
    return undefined;
  }
}

describe('RecentTextDelta', () => {
  it('reads the next deltas with the learnt prefix: text and sequence number, as JSON.parse does', () => {
    const reader = learnt();
    expect(reader.meaning).toBe('part 0:0');
    const accepted = [
      delta(' there', 2),
      delta('数据 😀 é', 3),
      delta('', 4),
      delta('x', 5, ',"logprobs":[]'),
      delta('y', 6, ',"obfuscation":"a1B2"'),
      delta('z', 123456789012345),
      delta('a \\"quoted\\" word', 7),
      delta('line\\nbreak', 8),
      delta('back\\\\', 9),
      delta('\\u00e9\\ud83d\\ude00', 10),
    ];
    for (const data of accepted) {
      expect(read(reader, data), data).toEqual(byJsonParse(data));
      expect(read(reader, data), data).toBeDefined();
    }
    const withoutSequence =
      '{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"w"}';
    expect(read(reader, withoutSequence)).toEqual({ text: 'w', sequence: undefined });
  });

  it('declines what it cannot read exactly, which the dialect then parses', () => {
    const reader = learnt();
    const declined = [
      // Another part or item: another prefix.
      delta('Hi', 2).replace('"output_index":0', '"output_index":1'),
      delta('Hi', 2).replace('msg_1', 'msg_2'),
      // Not a JSON string: a bad escape, a raw control character, a backslash escaping the closing quote.
      delta('bad \\x escape', 2),
      delta('Hi\\', 2),
      // Members this reader does not know, or again.
      delta('Hi', 2, ',"output_index":1'),
      delta('Hi', 2, ',"logprobs":[{"token":"Hi"}]'),
      delta('Hi', 2, ',"sequence_number":3'),
      // Not JSON.
      delta('Hi', 2).replace(/}$/, ''),
      delta('Hi', 2) + ' ',
      delta('Hi', 2).replace('"sequence_number":2', '"sequence_number":02'),
      delta('Hi', 2).replace('"sequence_number":2', '"sequence_number":2.5'),
      delta('Hi', 2).replace('"sequence_number":2', '"sequence_number":-2'),
      delta('raw\ncontrol', 2),
      delta('Hi', 2).replace(',"sequence_number":2}', ''),
    ];
    for (const data of declined) expect(read(reader, data), data).toBeUndefined();
  });

  it('learns only a prefix whose members do not nest, before the text, with nothing but known members after it', () => {
    const unlearnable = [
      '{"type":"response.output_text.delta","sequence_number":1,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"}',
      '{"type":"response.output_text.delta","item_id":"msg_1","meta":{"a":1},"output_index":0,"content_index":0,"delta":"Hi","sequence_number":1}',
      '{"type":"response.output_text.delta","item_id":"msg_\\u0031","output_index":0,"content_index":0,"delta":"Hi","sequence_number":1}',
      '{"type":"response.output_text.delta","delta":"Hi","item_id":"msg_1","output_index":0,"content_index":0,"sequence_number":1}',
      '{"type": "response.output_text.delta", "item_id": "msg_1", "delta": "Hi", "sequence_number": 1}',
    ];
    for (const data of unlearnable) {
      const reader = learnt(data);
      expect(reader.meaning, data).toBeUndefined();
      expect(reader.read(data), data).toBe(false);
    }
  });

  it('learns from a delta with escapes too, and forgets on request', () => {
    const reader = new RecentTextDelta<string>();
    reader.learn(delta('\\"quoted\\"', 1), 'part');
    expect(reader.meaning).toBe('part');
    expect(read(reader, delta('more', 3))).toEqual({ text: 'more', sequence: 3 });
    reader.forget();
    expect(reader.read(delta('more', 4))).toBe(false);
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
      'é',
      '数',
      '\n',
      '}',
      ',"sequence_number":1',
      ',"logprobs":[]',
      'x'.repeat(20),
    ];
    let seed = 29;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const reader = learnt();
    for (let i = 0; i < 2000; i++) {
      let body = '';
      for (let k = next(6); k > 0; k--) body += pieces[next(pieces.length)];
      const data = delta(body, next(1000));
      const got = read(reader, data);
      if (got !== undefined) expect(got, data).toEqual(byJsonParse(data));
      else if (byJsonParse(data) !== undefined && !body.includes(',"')) expect.fail(`declined a valid delta: ${data}`);
    }
  });
});

describe('RecentTextDelta, events that begin with their sequence number (as xAI writes them)', () => {
  const xai = (text: string, sequence: number | string, tail = ''): string =>
    `{"sequence_number":${sequence},"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"${text}"${tail}}`;

  it('learns the prefix after the sequence number and reads the next deltas as JSON.parse does', () => {
    const reader = learnt(xai('Hi', 1));
    expect(reader.meaning).toBe('part 0:0');
    for (const data of [
      xai(' there', 2),
      xai('a \\"b\\" é', 30),
      xai('x', 4, ',"logprobs":[]'),
      xai('', 123456789012345),
    ]) {
      expect(read(reader, data), data).toEqual(byJsonParse(data));
      expect(read(reader, data), data).toBeDefined();
    }
  });

  it('declines a second sequence number, a sequence number that is no plain integer, and the other form', () => {
    const reader = learnt(xai('Hi', 1));
    const declined = [
      xai('Hi', 2, ',"sequence_number":3'),
      xai('Hi', '02'),
      xai('Hi', '-2'),
      xai('Hi', '2.5'),
      xai('Hi', '"2"'),
      delta('Hi', 2),
      xai('Hi', 2).replace('msg_1', 'msg_2'),
    ];
    for (const data of declined) expect(read(reader, data), data).toBeUndefined();
    // And the other way round: learnt without it, an event that begins with it is declined.
    expect(read(learnt(), xai('Hi', 2))).toBeUndefined();
  });
});
