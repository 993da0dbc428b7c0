/**
 * What every fuzz input must satisfy, decoded whole and at other splittings: no exception,
 * frames that tile the stream, envelopes that point at real frames, and the same results
 * whatever the chunking (docs/reliability.md, "Fuzzing").
 */
import type { DialectRegistry } from '../dialects/registry';
import { stringifyJson } from '../json/tree';
import { framingOfHead } from '../pipeline/leg-framing';
import { decodeLegs } from '../pipeline/session-decoder';
import type { DecodeResult } from '../pipeline/types';
import { splitRandom } from '../sse/rechunk';
import { int, type Random } from './fuzz';

export interface FuzzFailure {
  /** exception, tiling, envelope-frame, chunking */
  kind: string;
  detail: string;
}

/** What must not depend on how the bytes were cut. Frames are left out: they record chunk indices. */
export function chunkIndependent(result: DecodeResult): unknown {
  return {
    formats: result.formats,
    envelopes: result.envelopes,
    blocks: result.blocks,
    agents: result.agents,
    diagnostics: result.diagnostics,
  };
}

/** The first offset after the last frame that no finding points at and that is not a line ending or in a comment line. */
function unaccountedTail(bytes: Uint8Array, result: DecodeResult): number | null {
  const tailStart = result.frames[0]?.at(-1)?.byteEnd ?? 0;
  const ranges = result.diagnostics
    .flatMap((d) =>
      d.at.byteStart !== undefined && d.at.byteEnd !== undefined && d.at.byteEnd > tailStart
        ? [[d.at.byteStart, d.at.byteEnd] as const]
        : [],
    )
    .sort((a, b) => a[0] - b[0]);
  let range = 0;
  let coveredTo = -1;
  const covered = (offset: number): boolean => {
    while (range < ranges.length && (ranges[range] as readonly [number, number])[0] <= offset)
      coveredTo = Math.max(coveredTo, (ranges[range++] as readonly [number, number])[1]);
    return offset < coveredTo;
  };
  const bomEnd = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  // A JSON array body's last frame ends with its last element: its closing ] follows, and
  // any empty array after it ([], several responses in one body) is structure, not data.
  const jsonArray = framingOfHead(bytes) === 'json-array';
  let lineStart = true;
  let inComment = false;
  for (let i = Math.max(tailStart, bomEnd); i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (jsonArray && (b === 0x5b || b === 0x5d || b === 0x20 || b === 0x09)) continue;
    if (b === 0x0a || b === 0x0d) {
      lineStart = true;
      inComment = false;
      continue;
    }
    if (lineStart) inComment = b === 0x3a;
    lineStart = false;
    if (!inComment && !covered(i)) return i;
  }
  return null;
}

function checkTiling(bytes: Uint8Array, result: DecodeResult): FuzzFailure | null {
  let expected = 0;
  for (const frame of result.frames[0] ?? []) {
    if (frame.byteStart !== expected || frame.byteEnd <= frame.byteStart) {
      return {
        kind: 'tiling',
        detail: `frame ${frame.seq} spans [${frame.byteStart}, ${frame.byteEnd}) but should start at ${expected}`,
      };
    }
    expected = frame.byteEnd;
  }
  if (expected > bytes.length)
    return { kind: 'tiling', detail: `frames end at ${expected}, after the stream's ${bytes.length} bytes` };
  const lost = unaccountedTail(bytes, result);
  if (lost !== null)
    return { kind: 'tiling', detail: `byte ${lost} after the last frame is in no frame and no finding points at it` };
  return null;
}

function checkEnvelopes(result: DecodeResult): FuzzFailure | null {
  const frames = result.frames[0] ?? [];
  for (const e of result.envelopes) {
    const frame = frames[e.frame];
    if (!frame || frame.byteStart !== e.byteStart || frame.byteEnd !== e.byteEnd) {
      return {
        kind: 'envelope-frame',
        detail: `envelope ${e.seq} points at frame ${e.frame} [${e.byteStart}, ${e.byteEnd}), which is not a frame of the stream`,
      };
    }
  }
  return null;
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Check decode results of `bytes`: `whole` from one chunk, `split` from other splittings. */
export function checkDecoded(
  bytes: Uint8Array,
  whole: DecodeResult,
  split: readonly DecodeResult[],
): FuzzFailure | null {
  const structural = checkTiling(bytes, whole) ?? checkEnvelopes(whole);
  if (structural) return structural;
  // stringifyJson, not JSON.stringify: results may hold values nested deeper than V8's serialiser goes.
  const expected = stringifyJson(chunkIndependent(whole));
  const differing = split.findIndex((result) => stringifyJson(chunkIndependent(result)) !== expected);
  return differing < 0
    ? null
    : { kind: 'chunking', detail: `splitting ${differing} decodes differently from the whole stream` };
}

export type ChunksDecoder = (chunks: readonly Uint8Array[]) => DecodeResult;

/** One leg of network chunks decoded with `dialects` (the built-in registry when absent). */
export function chunksDecoder(dialects?: DialectRegistry): ChunksDecoder {
  return (chunks) => decodeLegs([chunks.map((bytes) => ({ bytes }))], dialects ? { dialects } : {});
}

const decodeChunks = chunksDecoder();

/** Decode `bytes` whole and at the given splittings and check every property; null when all hold. */
export function checkInput(
  bytes: Uint8Array,
  splittings: readonly Uint8Array[][],
  decode: ChunksDecoder = decodeChunks,
): FuzzFailure | null {
  const results: DecodeResult[] = [];
  for (const chunks of [[bytes], ...splittings]) {
    try {
      results.push(decode(chunks));
    } catch (error) {
      return {
        kind: 'exception',
        detail: `${errorText(error)}${chunks.length > 1 ? ` (in ${chunks.length} chunks)` : ''}`,
      };
    }
  }
  const [whole, ...split] = results as [DecodeResult, ...DecodeResult[]];
  return checkDecoded(bytes, whole, split);
}

/** Two seeded splittings: chunks of up to 64 bytes and of up to 3 bytes (through every CRLF and UTF-8 sequence). */
export function fuzzSplittings(bytes: Uint8Array, random: Random): Uint8Array[][] {
  const seed = int(random, 2 ** 31);
  return [splitRandom(bytes, seed, 64), splitRandom(bytes, seed + 1, 3)];
}
