/**
 * The fuzzer's Node side: the upstream fixtures as seeds, a time-boxed loop, minimised
 * failures, and the memory check (heap retained after a full GC against the input size),
 * for the short run in `npm test` (fuzz.test.ts) and the long one (`npm run fuzz`).
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isDialectId } from '../../src-shared/dialects/registry';
import { decodeLegs } from '../../src-shared/pipeline/session-decoder';
import { splitEvery } from '../../src-shared/sse/rechunk';
import type { FuzzFailure } from '../../src-shared/testing/fuzz-checks';
import {
  decoderOf,
  failsWith,
  fuzzOne,
  minimise,
  type FuzzOptions,
  type FuzzSeed,
} from '../../src-shared/testing/fuzz-loop';
import { listProviderFixtures, listSseFixtures, providerFixturePath, readFixture, readManifest } from './fixtures';

/**
 * Every upstream fixture, with the dialect it is written in (the captured stream is XML), and
 * every provider fixture, whose folder is named after its dialect.
 */
export function fixtureSeeds(): FuzzSeed[] {
  const manifest = readManifest();
  const upstream = listSseFixtures().map((name) => {
    const kind = manifest[name]?.kind ?? 'json';
    return { name, dialect: kind === 'captured' ? 'xml' : kind, bytes: readFixture(name) };
  });
  const providers = listProviderFixtures().map((name) => ({
    name,
    dialect: name.split('/')[0] ?? '',
    bytes: new Uint8Array(readFileSync(providerFixturePath(name))),
  }));
  return [...upstream, ...providers].flatMap((seed) =>
    isDialectId(seed.dialect) ? [{ ...seed, dialect: seed.dialect }] : [],
  );
}

export interface FoundFailure {
  index: number;
  recipe: string[];
  failure: FuzzFailure;
  /** The smallest input found that fails the same way. */
  minimised: Uint8Array;
}

export interface FuzzReport {
  seed: number;
  inputs: number;
  bytes: number;
  byDialect: Record<string, number>;
  failures: FoundFailure[];
  seconds: number;
}

/** Check inputs 0, 1, 2, … of `options.seed` until `seconds` have passed (or `maxInputs`). */
export function runFuzz(options: FuzzOptions, seconds: number, maxInputs = Number.POSITIVE_INFINITY): FuzzReport {
  const started = performance.now();
  const report: FuzzReport = { seed: options.seed, inputs: 0, bytes: 0, byDialect: {}, failures: [], seconds: 0 };
  for (let index = 0; index < maxInputs && performance.now() - started < seconds * 1000; index++) {
    const { input, failure } = fuzzOne(options, index);
    report.inputs++;
    report.bytes += input.bytes.length;
    report.byDialect[input.dialect] = (report.byDialect[input.dialect] ?? 0) + 1;
    if (failure)
      report.failures.push({
        index,
        recipe: input.recipe,
        failure,
        minimised: minimise(input.bytes, failsWith(failure.kind, decoderOf(options))),
      });
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

let collect: (() => void) | undefined;

/** A full garbage collection, whether or not node was started with --expose-gc. */
export function collectGarbage(): void {
  if (!collect) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (exposed) collect = exposed;
    else {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    }
  }
  // V8 keeps the subject of the last successful RegExp match alive (RegExp.lastMatch and
  // friends): one match on a tiny string releases a large one.
  /x/.exec('x');
  collect();
  collect();
}

/**
 * Heap a decode result may hold per input byte. Everything decoded is kept (frames, envelopes,
 * blocks, findings), so the result grows with the input; the ceiling catches a result that
 * keeps more than a few copies of it (each chunk's text, a quadratic buffer). Streams of
 * real events hold about 8×; streams of tiny generated events with a finding each up to 18×.
 */
export const MAX_RETAINED_PER_INPUT_BYTE = 24;

export interface HeapUse {
  inputBytes: number;
  /** Heap held by the decode result (after a full GC, against the heap before decoding). */
  retainedBytes: number;
  /** Heap still held once the result is dropped: what the decoder leaked. */
  leakedBytes: number;
  envelopes: number;
}

/** Heap left after the result is dropped that counts as allocator noise; a leak of the input would be megabytes. */
export const MAX_LEAKED_BYTES = 4 * 1024 * 1024;

/**
 * How long a dropped result may stay reachable. A concurrent optimisation job of V8 holds
 * handles to the closures it compiles, and with them the decoder state and everything it
 * decoded, until the job finishes: on a loaded machine that outlasts one settle. A leak stays.
 */
const RELEASE_DEADLINE_MS = 5000;

type Decode = (bytes: Uint8Array) => { envelopes: readonly unknown[] };

function decodeInChunks(bytes: Uint8Array): { envelopes: readonly unknown[] } {
  return decodeLegs([splitEvery(bytes, 64 * 1024).map((chunk) => ({ bytes: chunk }))]);
}

/** Decode `bytes` in 64 KiB chunks and measure the heap the result keeps and what stays after it is dropped. */
export async function measureHeap(bytes: Uint8Array, decode: Decode = decodeInChunks): Promise<HeapUse> {
  const before = await settledHeap();
  const { retainedBytes, envelopes } = decodeAndMeasure(bytes, before, decode);
  const deadline = performance.now() + RELEASE_DEADLINE_MS;
  let leakedBytes = (await settledHeap()) - before;
  while (leakedBytes >= MAX_LEAKED_BYTES && performance.now() < deadline)
    leakedBytes = Math.min(leakedBytes, (await settledHeap()) - before);
  return { inputBytes: bytes.length, retainedBytes, leakedBytes, envelopes };
}

/**
 * The heap in use after full collections with turns of the event loop between them: right
 * after one collection the figure can still count garbage V8 has not swept yet.
 */
async function settledHeap(): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    collectGarbage();
    least = Math.min(least, process.memoryUsage().heapUsed);
  }
  return least;
}

/** In a frame of its own, so that no slot of the caller's frame still holds the result when it is dropped. */
function decodeAndMeasure(
  bytes: Uint8Array,
  before: number,
  decode: Decode,
): { retainedBytes: number; envelopes: number } {
  const result = decode(bytes);
  collectGarbage();
  const retainedBytes = process.memoryUsage().heapUsed - before;
  // Read after measuring, so the result is alive while it is measured.
  return { retainedBytes, envelopes: result.envelopes.length };
}
