/**
 * Measuring deltas for the chunk statistics and the budget check (`measureText`,
 * src-shared/envelope/budget.ts): UTF-8 bytes and JSON-escaped bytes of every delta of a
 * seeded stream, against the two ways it was measured before — a loop that tells the sizes
 * apart by comparisons, and the native encoder for the bytes plus a loop for the escapes —
 * on the same deltas, in alternation. The deltas mix Latin, CJK and emoji (bench/streams.ts),
 * where the comparisons' branches mispredict; the table lookup avoids them.
 */
import { measureText, type TextMeasure } from '../src-shared/envelope/budget';
import { utf8ByteLength } from '../src-shared/text/utf8';
import type { BenchOptions, BenchTable } from './run';
import { generateStream } from './streams';
import { alternate } from './timing';

const MB = 1024 * 1024;

/** The deltas of a generated JSON envelope stream, parsed once outside the timing. */
function deltasOf(profile: 'deltas' | 'mixed', sizeMb: number): string[] {
  const text = new TextDecoder().decode(generateStream('json', sizeMb * MB, profile));
  const deltas: string[] = [];
  for (const line of text.split('\n')) if (line.startsWith('data: {')) deltas.push((JSON.parse(line.slice(6)) as { delta: string }).delta);
  return deltas;
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
      else if (code < 0x20) extra += code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 1 : 5;
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
  const rows: (string | number)[][] = [];
  for (const profile of ['deltas', 'mixed'] as const) {
    const deltas = deltasOf(profile, sizeMb);
    const chars = deltas.reduce((n, d) => n + d.length, 0);
    const before = profile === 'mixed' ? nativeThenLoop : comparisonsLoop;
    const r = alternate(() => total(deltas, (text, out) => measureText(text, out)), () => total(deltas, before), rounds);
    if (r.ours !== r.floor) throw new Error(`measureText disagrees with the loop on ${profile}: ${r.ours} against ${r.floor}`);
    rows.push([profile, deltas.length, chars, (r.floorMs * 1e6 / chars).toFixed(2), (r.oursMs * 1e6 / chars).toFixed(2), r.ratio.toFixed(2)]);
  }
  return [
    {
      title: `Measuring deltas (UTF-8 and JSON-escaped bytes), ${sizeMb} MB json streams (medians of ${rounds} alternating rounds)`,
      columns: ['profile', 'deltas', 'characters', 'before ns/char', 'measureText ns/char', 'time of before'],
      rows,
      notes: ['before: deltas profile, a comparison chain per character; mixed profile, the same for short text and the native encoder plus the loop for text over 256 units.'],
    },
  ];
}
