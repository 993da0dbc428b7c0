/**
 * The two scans the JSON envelope path makes over every delta or event, each against the way
 * it was done before, on the same seeded stream (bench/streams.ts), in alternation:
 *
 * - Measuring deltas for the chunk statistics and the budget check (`measureText`,
 *   src-shared/envelope/budget.ts): UTF-8 bytes and JSON-escaped bytes, against a loop that
 *   tells the sizes apart by comparisons (and, for long text, the native encoder for the
 *   bytes plus that loop for the escapes). The deltas mix Latin, CJK and emoji, where the
 *   comparisons' branches mispredict; the table lookup avoids them.
 * - Finding unpaired surrogate escapes in each event's data (`findLoneSurrogateEscapes`,
 *   src-shared/dialects/json-envelope/surrogates.ts), against the walk over every escape it
 *   replaced: tool payloads carry JSON with a `\"` every few characters, and only `\u` matters.
 */
import { findLoneSurrogateEscapes } from '../src-shared/dialects/json-envelope/surrogates';
import { measureText, type TextMeasure } from '../src-shared/envelope/budget';
import { utf8ByteLength } from '../src-shared/text/utf8';
import type { BenchOptions, BenchTable } from './run';
import { generateStream } from './streams';
import { alternate } from './timing';

const MB = 1024 * 1024;

/** The data of every event of a generated JSON envelope stream. */
function eventsOf(profile: 'deltas' | 'mixed', sizeMb: number): string[] {
  const text = new TextDecoder().decode(generateStream('json', sizeMb * MB, profile));
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => line.slice(6));
}

/** The measuring loop before the table: a chain of comparisons per character. */
function comparisonsLoop(text: string, out: TextMeasure): void {
  let bytes = 0;
  let extra = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes++;
      if (code === 0x22 || code === 0x5c) extra += 1;
      else if (code < 0x20)
        extra += code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 1 : 5;
    } else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
        extra += 3;
      }
    } else bytes += 3;
  }
  out.bytes = bytes;
  out.escapedBytes = bytes + extra;
}

/** Before, for text over 256 units: the native encoder for the bytes, then the loop again for the escapes. */
function nativeThenLoop(text: string, out: TextMeasure): void {
  if (text.length <= 256) return comparisonsLoop(text, out);
  const bytes = utf8ByteLength(text);
  comparisonsLoop(text, out);
  out.bytes = bytes;
}

/** Before: every backslash taken with the character after it as one escape, each \u looked at. */
function walkEveryEscape(text: string): number {
  let lone = 0;
  for (let i = text.indexOf('\\'); i !== -1;) {
    const code =
      text.charCodeAt(i + 1) === 0x75 && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))
        ? Number.parseInt(text.slice(i + 2, i + 6), 16)
        : -1;
    if (code < 0xd800 || code > 0xdfff) {
      i = text.indexOf('\\', i + 2);
      continue;
    }
    const next = text.charCodeAt(i + 7) === 0x75 ? Number.parseInt(text.slice(i + 8, i + 12), 16) : -1;
    if (code <= 0xdbff && text.charCodeAt(i + 6) === 0x5c && next >= 0xdc00 && next <= 0xdfff) {
      i = text.indexOf('\\', i + 12);
      continue;
    }
    lone++;
    i = text.indexOf('\\', i + 6);
  }
  return lone;
}

function total(deltas: readonly string[], measure: (text: string, out: TextMeasure) => unknown): number {
  const out: TextMeasure = { bytes: 0, escapedBytes: 0 };
  let sum = 0;
  for (let i = 0; i < deltas.length; i++) {
    measure(deltas[i] as string, out);
    sum += out.escapedBytes;
  }
  return sum;
}

export function run(options: BenchOptions): BenchTable[] {
  const sizeMb = options.quick ? 4 : 32;
  const rounds = options.quick ? 7 : 11;
  const measures: (string | number)[][] = [];
  const scans: (string | number)[][] = [];
  for (const profile of ['deltas', 'mixed'] as const) {
    const events = eventsOf(profile, sizeMb);
    const deltas = events.map((data) => (JSON.parse(data) as { delta: string }).delta);
    const chars = deltas.reduce((n, d) => n + d.length, 0);
    const before = profile === 'mixed' ? nativeThenLoop : comparisonsLoop;
    const m = alternate(
      () => total(deltas, (text, out) => measureText(text, out)),
      () => total(deltas, before),
      rounds,
    );
    if (m.ours !== m.floor)
      throw new Error(`measureText disagrees with the loop on ${profile}: ${m.ours} against ${m.floor}`);
    measures.push([
      profile,
      deltas.length,
      chars,
      ((m.floorMs * 1e6) / chars).toFixed(2),
      ((m.oursMs * 1e6) / chars).toFixed(2),
      m.ratio.toFixed(2),
    ]);

    const dataChars = events.reduce((n, d) => n + d.length, 0);
    const lone = (scan: (text: string) => number): number => events.reduce((n, data) => n + scan(data), 0);
    const s = alternate(
      () => lone((data) => findLoneSurrogateEscapes(data).length),
      () => lone(walkEveryEscape),
      rounds,
    );
    if (s.ours !== s.floor)
      throw new Error(`findLoneSurrogateEscapes disagrees with the walk on ${profile}: ${s.ours} against ${s.floor}`);
    scans.push([
      profile,
      events.length,
      dataChars,
      ((s.floorMs * 1e6) / dataChars).toFixed(2),
      ((s.oursMs * 1e6) / dataChars).toFixed(2),
      s.ratio.toFixed(2),
    ]);
  }
  return [
    {
      title: `Measuring deltas (UTF-8 and JSON-escaped bytes), ${sizeMb} MB json streams (medians of ${rounds} alternating rounds)`,
      columns: ['profile', 'deltas', 'characters', 'before ns/char', 'measureText ns/char', 'time of before'],
      rows: measures,
      notes: [
        'before: deltas profile, a comparison chain per character; mixed profile, the same for short text and the native encoder plus the loop for text over 256 units.',
      ],
    },
    {
      title: `Unpaired surrogate escapes in each event's data, ${sizeMb} MB json streams (medians of ${rounds} alternating rounds)`,
      columns: [
        'profile',
        'events',
        'characters',
        'before ns/char',
        'findLoneSurrogateEscapes ns/char',
        'time of before',
      ],
      rows: scans,
      notes: ['before: a walk over every escape of the data (each backslash with the character after it).'],
    },
  ];
}
