/** Mutations of real streams at the byte and line level, for the fuzzer (fuzz-loop.ts). */
import { concatBytes } from '../bytes/held-bytes';
import { encodeUtf8 } from '../text/utf8';
import { int, pick, type Random } from './fuzz';

const CONTROL_INSERTS: readonly (readonly number[])[] = [
  [0x0d],
  [0x0a],
  [0x0d, 0x0a, 0x0d, 0x0a],
  [0x00],
  [0x1b, 0x5b, 0x32, 0x4a],
  [0x07],
  [0x7f],
  [0xef, 0xbb, 0xbf],
  [0xff],
  [0xc3],
  [0xe6, 0x97],
  [0xed, 0xa0, 0x80],
];

/** Offsets just after each LF (line starts), with 0. */
function lineStarts(bytes: Uint8Array): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
  return starts;
}

function lineAt(bytes: Uint8Array, random: Random): [number, number] {
  const starts = lineStarts(bytes);
  const i = int(random, starts.length);
  return [starts[i] as number, starts[i + 1] ?? bytes.length];
}

export interface Mutation {
  name: string;
  apply(bytes: Uint8Array, random: Random, donor: Uint8Array): Uint8Array;
}

export interface MutationLimits {
  /** Largest line `huge-line` adds. */
  hugeLineBytes: number;
}

export function mutations(limits: MutationLimits): Mutation[] {
  return [
    {
      name: 'flip-bytes',
      apply(bytes, random) {
        const out = bytes.slice();
        for (let n = 1 + int(random, 8); n > 0 && out.length > 0; n--) {
          const at = int(random, out.length);
          out[at] = random() < 0.5 ? (out[at] as number) ^ (1 << int(random, 8)) : int(random, 256);
        }
        return out;
      },
    },
    { name: 'truncate', apply: (bytes, random) => bytes.subarray(0, int(random, bytes.length + 1)) },
    {
      name: 'splice',
      apply(bytes, random, donor) {
        const at = int(random, bytes.length + 1);
        const from = int(random, donor.length + 1);
        const piece = donor.subarray(from, from + int(random, 4096));
        const cut = random() < 0.5 ? at : Math.min(bytes.length, at + int(random, 4096));
        return concatBytes([bytes.subarray(0, at), piece, bytes.subarray(cut)]);
      },
    },
    {
      name: 'duplicate-line',
      apply(bytes, random) {
        const [start, end] = lineAt(bytes, random);
        return concatBytes([bytes.subarray(0, end), bytes.subarray(start, end), bytes.subarray(end)]);
      },
    },
    {
      name: 'delete-line',
      apply(bytes, random) {
        const [start, end] = lineAt(bytes, random);
        return concatBytes([bytes.subarray(0, start), bytes.subarray(end)]);
      },
    },
    {
      name: 'swap-lines',
      apply(bytes, random) {
        const [a0, a1] = lineAt(bytes, random);
        const [b0, b1] = lineAt(bytes, random);
        if (a0 === b0) return bytes;
        const [first, second] =
          a0 < b0
            ? [
                [a0, a1],
                [b0, b1],
              ]
            : [
                [b0, b1],
                [a0, a1],
              ];
        if ((first[1] as number) > (second[0] as number)) return bytes;
        return concatBytes([
          bytes.subarray(0, first[0]),
          bytes.subarray(second[0], second[1]),
          bytes.subarray(first[1], second[0]),
          bytes.subarray(first[0], first[1]),
          bytes.subarray(second[1]),
        ]);
      },
    },
    {
      name: 'inject-control',
      apply(bytes, random) {
        const at = int(random, bytes.length + 1);
        return concatBytes([bytes.subarray(0, at), Uint8Array.from(pick(random, CONTROL_INSERTS)), bytes.subarray(at)]);
      },
    },
    {
      name: 'huge-line',
      apply(bytes, random) {
        const [start] = lineAt(bytes, random);
        const size = 1 + int(random, limits.hugeLineBytes);
        const body =
          random() < 0.5
            ? 'x'.repeat(size)
            : `{"type":"text","agent":"a","final":false,"delta":"${'\\n'.repeat(size >> 1)}"}`;
        return concatBytes([
          bytes.subarray(0, start),
          encodeUtf8(`data: ${body}\n${random() < 0.7 ? '\n' : ''}`),
          bytes.subarray(start),
        ]);
      },
    },
    {
      name: 'line-endings',
      apply(bytes, random) {
        const eol = encodeUtf8(pick(random, ['\r', '\r\n']));
        const parts: Uint8Array[] = [];
        let from = 0;
        for (let i = 0; i < bytes.length; i++) {
          if (bytes[i] !== 0x0a || random() < 0.3) continue;
          parts.push(bytes.subarray(from, i), eol);
          from = i + 1;
        }
        parts.push(bytes.subarray(from));
        return concatBytes(parts);
      },
    },
  ];
}
