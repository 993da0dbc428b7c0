import { int, pick, type Random } from './fuzz';

/**
 * Seeded variations of a stream's hot events for the shape readers' equivalence tests
 * (src-shared/json/shapes.ts): the event as its writer sends it, and the same event with its
 * keys reordered, an extra key, whitespace, a number in another form, strings full of escapes,
 * surrogates and raw unicode, or plain invalid JSON. Reading an event without JSON.parse must
 * give exactly what JSON.parse gives, or decline it.
 */

/** Pieces of a JSON string's text as written on the wire (escapes as escapes), valid or not. */
const STRING_PIECES = [
  'Hello',
  ' world',
  '数据',
  'émoji 😀',
  '\\"',
  '\\\\',
  '\\n',
  '\\/',
  '\\b\\f\\r\\t',
  '\\u00e9',
  '\\u0041',
  '\\ud83d\\ude00',
  '\\ud800',
  '\\udc00x',
  '}',
  '"}',
  '\\"}',
  ',"x":"',
  '{',
  'x'.repeat(40),
  // Not JSON: a raw quote, a raw control character, an unknown escape, a dangling backslash.
  '"',
  '\u0001',
  '\n',
  '\\x',
  '\\',
];
/** Mostly valid pieces: the invalid ones are the last five. */
const VALID_PIECES = STRING_PIECES.length - 5;

/** The text between a JSON string's quotes: mostly valid, sometimes not. */
export function stringText(random: Random, pieces = 4): string {
  let text = '';
  const pool = random() < 0.85 ? VALID_PIECES : STRING_PIECES.length;
  for (let n = int(random, pieces + 1); n > 0; n--) text += STRING_PIECES[int(random, pool)] as string;
  return text;
}

/** An integer as written, or in another form (fraction, exponent, sign, leading zero, huge). */
export function integerText(random: Random, value: number): string {
  if (random() < 0.8) return String(value);
  return pick(random, [
    `${value}.0`,
    `${value}e0`,
    `-${value}`,
    `0${value}`,
    '-0',
    '1e400',
    '12345678901234567890',
    ` ${value}`,
  ]);
}

/** One member of an event: its key and its value's JSON text as written. */
export type Member = readonly [key: string, valueText: string];

/**
 * The event's compact JSON text, often exactly as given, otherwise with its members
 * reordered, an extra member in some place, whitespace, a duplicated key, or cut short.
 */
export function eventText(random: Random, members: readonly Member[]): string {
  let list = [...members];
  let colon = ':';
  let comma = ',';
  if (random() < 0.5) {
    switch (int(random, 6)) {
      case 0:
        list = shuffled(random, list);
        break;
      case 1:
        list.splice(int(random, list.length + 1), 0, [
          'extra',
          pick(random, ['1', '"x"', 'null', '[]', '{"a":1}', '1.5e3']),
        ]);
        break;
      case 2:
        colon = ': ';
        break;
      case 3:
        comma = ', ';
        break;
      case 4: {
        const member = list[int(random, list.length)] as Member;
        list.push(member);
        break;
      }
      default: {
        const text = `{${list.map(([key, value]) => `"${key}":${value}`).join(',')}}`;
        return text.slice(0, int(random, text.length));
      }
    }
  }
  return `{${list.map(([key, value]) => `"${key}"${colon}${value}`).join(comma)}}`;
}

function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(random, i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
