/**
 * A seeded fuzzer for the whole decoder (bytes → frames → envelopes → blocks). Inputs are
 * real streams mutated at the byte and line level (fuzz-mutations.ts), and streams generated
 * from each dialect's grammar (fuzz-streams.ts; the grammars live in the dialect folders); every
 * input is decoded whole and at two random splittings and must (fuzz-checks.ts)
 *
 * - raise no exception,
 * - give frames that tile the stream: contiguous byte ranges from 0, and whatever follows
 *   the last frame is line endings, comments or bytes a finding points at,
 * - give envelopes that point at real frames,
 * - give the same envelopes, blocks, agents and findings whatever the chunking.
 *
 * Everything is derived from one seed and the input's number, so a failure is reproduced
 * by its (seed, input) pair. The memory check needs a garbage collector and lives with the
 * Node runner (src-main/testing/fuzz-runner.ts).
 */
import { concatBytes } from '../bytes/held-bytes';
import { DIALECT_REGISTRY, type DialectRegistry } from '../dialects/registry';
import { seededRandom } from '../sse/rechunk';
import { int, pick, type FuzzDialect } from './fuzz';
import { checkInput, chunksDecoder, fuzzSplittings, type ChunksDecoder, type FuzzFailure } from './fuzz-checks';
import { mutations, type MutationLimits } from './fuzz-mutations';
import { generateStream } from './fuzz-streams';

/** A real stream to mutate, and the dialect it is written in. */
export interface FuzzSeed {
  name: string;
  dialect: string;
  bytes: Uint8Array;
}

export interface FuzzInput {
  index: number;
  dialect: string;
  /** What it was made from: a seed's name or `generated`, then each mutation. */
  recipe: string[];
  bytes: Uint8Array;
}

export interface FuzzOptions {
  seed: number;
  seeds: readonly FuzzSeed[];
  limits: MutationLimits;
  /** Each dialect's grammar by id (src-main/testing/fuzz-grammars.ts finds them in the dialect folders). */
  grammars: ReadonlyMap<string, FuzzDialect>;
  /** The dialects that take turns and decode the inputs, in their order; the built-in registry by default. */
  dialects?: DialectRegistry;
}

function grammarOf(options: FuzzOptions, dialect: string): FuzzDialect {
  const grammar = options.grammars.get(dialect);
  if (!grammar) throw new Error(`dialect ${dialect} has no fuzz grammar (its folder's fuzz.ts, docs/dialects.md)`);
  return grammar;
}

/** The `index`-th input of a run: a function of (seed, index) only, so any input can be rebuilt. */
export function makeInput(options: FuzzOptions, index: number): FuzzInput {
  const random = seededRandom((options.seed * 1_000_003 + index) >>> 0);
  const ids = (options.dialects ?? DIALECT_REGISTRY).ids;
  const dialect = ids[index % ids.length] as string;
  const ofDialect = options.seeds.filter((s) => s.dialect === dialect);
  const all = mutations(options.limits);
  let bytes: Uint8Array;
  const recipe: string[] = [];
  if (ofDialect.length > 0 && random() < 0.7) {
    const base = pick(random, ofDialect);
    bytes = base.bytes;
    recipe.push(base.name);
  } else {
    bytes = generateStream(grammarOf(options, dialect), random);
    recipe.push('generated');
  }
  const count = recipe[0] === 'generated' ? int(random, 3) : 1 + int(random, 3);
  for (let n = 0; n < count; n++) {
    const mutation = pick(random, all);
    const donor = options.seeds.length > 0 ? pick(random, options.seeds).bytes : bytes;
    bytes = mutation.apply(bytes, random, donor);
    recipe.push(mutation.name);
  }
  return { index, dialect, recipe, bytes };
}

/** Check the `index`-th input (see makeInput). */
export function fuzzOne(options: FuzzOptions, index: number): { input: FuzzInput; failure: FuzzFailure | null } {
  const input = makeInput(options, index);
  const random = seededRandom((options.seed * 7_919 + index) >>> 0);
  return { input, failure: checkInput(input.bytes, fuzzSplittings(input.bytes, random), decoderOf(options)) };
}

/** How a run decodes: with its dialects. */
export function decoderOf(options: Pick<FuzzOptions, 'dialects'>): ChunksDecoder {
  return chunksDecoder(options.dialects);
}

/**
 * A smaller input for which `stillFails` holds: delta debugging over byte ranges, halving the
 * piece size down to one byte. `budget` caps the number of calls.
 */
export function minimise(bytes: Uint8Array, stillFails: (candidate: Uint8Array) => boolean, budget = 2000): Uint8Array {
  let current = bytes;
  let calls = 0;
  for (
    let size = Math.max(1, current.length >> 1);
    size >= 1 && calls < budget;
    size = size === 1 ? 0 : Math.max(1, size >> 1)
  ) {
    for (let at = 0; at < current.length && calls < budget;) {
      const candidate = concatBytes([current.subarray(0, at), current.subarray(at + size)]);
      calls++;
      if (stillFails(candidate)) current = candidate;
      else at += size;
    }
  }
  return current;
}

/** Whether `bytes` fails the fuzz checks with a failure of this kind (under splittings seeded by its length). */
export function failsWith(kind: string, decode?: ChunksDecoder): (bytes: Uint8Array) => boolean {
  return (bytes) => checkInput(bytes, fuzzSplittings(bytes, seededRandom(bytes.length)), decode)?.kind === kind;
}
