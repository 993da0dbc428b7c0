import { describe, expect, it } from 'vitest';
import { seededRandom } from '../sse/rechunk';
import { eventText, integerText, stringText, type Member } from '../testing/shape-variations';
import { ShapeReader } from './shapes';

const ENVELOPE = '{"type":"{id}","agent":"{id}","final":{bool},"delta":"{str}"}';
const INDEXED = '{"type":"delta","index":{int},"text":"{str}","more":{bool}}';

/** The slots' values as JSON.parse reads them, in template order, or undefined when the text is no such event. */
function parsedValues(data: string, keys: readonly string[]): unknown[] | undefined {
  try {
    const value = JSON.parse(data) as Record<string, unknown>;
    return keys.map((key) => value[key]);
  } catch {
    return undefined;
  }
}

describe('ShapeReader', () => {
  it('reads each slot kind, escapes included, and a repeated head through one comparison', () => {
    const reader = new ShapeReader([ENVELOPE, INDEXED]);
    expect(reader.read('{"type":"text","agent":"a\\"1","final":false,"delta":"x \\"y\\"\\n\\u00e9"}')).toBe(true);
    expect([reader.shape, ...reader.values]).toEqual([0, 'text', 'a"1', false, 'x "y"\né']);
    expect(reader.read('{"type":"text","agent":"a\\"1","final":false,"delta":"next"}')).toBe(true);
    expect(reader.values).toEqual(['text', 'a"1', false, 'next']);
    expect(reader.read('{"type":"delta","index":42,"text":"数据 😀","more":true}')).toBe(true);
    expect([reader.shape, reader.integer(0), reader.string(1), reader.flag(2)]).toEqual([1, 42, '数据 😀', true]);
  });

  it('hands out one string per repeated id', () => {
    const reader = new ShapeReader([ENVELOPE]);
    reader.read('{"type":"text","agent":"agent-1","final":false,"delta":"a"}');
    const agent = reader.string(1);
    reader.read('{"type":"thinking","agent":"agent-1","final":true,"delta":"b"}');
    expect(reader.string(1)).toBe(agent);
  });

  it.each([
    ['another key order', '{"agent":"a","type":"text","final":false,"delta":"x"}'],
    ['whitespace', '{"type": "text","agent":"a","final":false,"delta":"x"}'],
    ['an extra key', '{"type":"text","agent":"a","final":false,"delta":"x","id":"y"}'],
    ['a missing key', '{"type":"text","agent":"a","delta":"x"}'],
    ['a number for a flag', '{"type":"text","agent":"a","final":0,"delta":"x"}'],
    ['a raw control character', '{"type":"text","agent":"a","final":false,"delta":"a\u0001"}'],
    ['a raw quote', '{"type":"text","agent":"a","final":false,"delta":"a"b"}'],
    ['trailing text', '{"type":"text","agent":"a","final":false,"delta":"x"} '],
    ['an event over the length it reads', `{"type":"text","agent":"a","final":false,"delta":"${'x'.repeat(600)}"}`],
  ])('declines %s (the dialect parses it instead)', (_name, data) => {
    const reader = new ShapeReader([ENVELOPE]);
    // A head learnt first: the declines must hold after it too.
    expect(reader.read('{"type":"text","agent":"a","final":false,"delta":"warm"}')).toBe(true);
    expect(reader.read(data)).toBe(false);
  });

  it('checks a skipped string as JSON.parse would, without handing it out, and learns no head after it', () => {
    const STAMPED = '{"model":"{id}","at":"{skip}","text":"{str}"}';
    const reader = new ShapeReader([STAMPED]);
    expect(reader.read('{"model":"m","at":"2025-01-01T12:00:00Z","text":"a"}')).toBe(true);
    expect([reader.string(0), reader.string(2)]).toEqual(['m', 'a']);
    expect(reader.read('{"model":"m","at":"tw\\u00e9lve \\"o\\" clock","text":"b"}')).toBe(true);
    expect(reader.string(2)).toBe('b');
    // What JSON.parse refuses there: a raw control character, a bad escape, a dangling backslash.
    for (const at of ['a\u0001', 'bad \\x', 'end\\'])
      expect(reader.read(`{"model":"m","at":"${at}","text":"c"}`), at).toBe(false);
    // The time differs on every line: the text before the last string is never a head to remember.
    expect(reader.lastStringBytes(100)).toBe(-1);
  });

  it('declines everything when disabled', () => {
    expect(new ShapeReader([ENVELOPE], false).read('{"type":"text","agent":"a","final":false,"delta":"x"}')).toBe(
      false,
    );
  });

  it('never reads what JSON.parse reads differently (seeded variations, adversarial strings)', () => {
    const random = seededRandom(26);
    const reader = new ShapeReader([ENVELOPE, INDEXED]);
    const agents = ['agent-1', 'agent-2', 'a\\"b', '代理', '\\u0061gent'];
    let read = 0;
    for (let i = 0; i < 20_000; i++) {
      const envelope = random() < 0.7;
      const members: Member[] = envelope
        ? [
            ['type', `"${random() < 0.8 ? 'text' : stringText(random, 1)}"`],
            ['agent', `"${agents[Math.floor(random() * agents.length)] as string}"`],
            ['final', random() < 0.9 ? String(random() < 0.5) : '"true"'],
            ['delta', `"${stringText(random)}"`],
          ]
        : [
            ['type', '"delta"'],
            ['index', integerText(random, Math.floor(random() * 1000))],
            ['text', `"${stringText(random)}"`],
            ['more', String(random() < 0.5)],
          ];
      const data = eventText(random, members);
      // The slots' keys: the indexed shape's type is literal text.
      const keys = (envelope ? members : members.slice(1)).map(([key]) => key);
      if (!reader.read(data)) continue;
      read++;
      expect(reader.values.slice(0, keys.length), data).toEqual(parsedValues(data, keys));
      expect(reader.shape, data).toBe(envelope ? 0 : 1);
    }
    // Most variations are the plain shape: the reader must read them, not decline everything.
    expect(read).toBeGreaterThan(5_000);
  });
});
