/**
 * The check a recording's chunk records get as they are read (`parseChunkLine`,
 * src-shared/recording/chunk-line.ts): that each record's `bytes` is padded base64. A
 * recording is almost all base64, so this check runs over nearly every byte of a file opened.
 * Ours, on the line's bytes four at a time (`isPaddedBase64Bytes`) before they are decoded to
 * the record's text, against what it replaced:
 * the text decoded from the bytes (which the record needs anyway) and the native regular
 * expression of the full parse over it (`isPaddedBase64`).
 */
import { isPaddedBase64Bytes } from '../src-shared/recording/chunk-line';
import { encodeBase64 } from '../src-shared/recording/base64';
import { isPaddedBase64 } from '../src-shared/recording/format';
import type { BenchOptions, BenchTable } from './run';
import { generateStream, networkChunks } from './streams';
import { alternate } from './timing';

const MB = 1024 * 1024;

export function run(options: BenchOptions): BenchTable[] {
  const sizeMb = options.quick ? 16 : 64;
  const rounds = options.quick ? 7 : 11;
  // Each chunk's base64 between quotes, as a chunk record's line holds it.
  const lines = networkChunks(generateStream('json', sizeMb * MB)).map((chunk) =>
    new TextEncoder().encode(`"${encodeBase64(chunk)}"`),
  );
  const characters = lines.reduce((n, line) => n + line.length - 2, 0);
  const ascii = new TextDecoder();
  const textOf = (line: Uint8Array): string => ascii.decode(line.subarray(1, line.length - 1));
  const valid = (check: (line: Uint8Array) => boolean): number => lines.filter(check).length;
  const m = alternate(
    // Checked, then decoded to the record's text: what parseChunkLine does with a valid line.
    () => valid((line) => isPaddedBase64Bytes(line, 1, line.length - 1) && textOf(line).length > 0),
    () => valid((line) => isPaddedBase64(textOf(line))),
    rounds,
  );
  if (m.ours !== lines.length || m.floor !== lines.length)
    throw new Error(`the checks disagree: ${m.ours} and ${m.floor} of ${lines.length} valid`);
  return [
    {
      title: `Checking chunk records' base64, ${sizeMb} MB json stream in network-sized chunks (medians of ${rounds} alternating rounds)`,
      columns: ['chunks', 'characters', 'before ns/char', 'ours ns/char', 'time of before'],
      rows: [
        [
          lines.length,
          characters,
          ((m.floorMs * 1e6) / characters).toFixed(2),
          ((m.oursMs * 1e6) / characters).toFixed(2),
          m.ratio.toFixed(2),
        ],
      ],
      notes: [
        'ours: isPaddedBase64Bytes over the bytes, then the bytes decoded to the text the record keeps.',
        'before: the bytes decoded to text, then the regular expression of isPaddedBase64 over it.',
      ],
    },
  ];
}
