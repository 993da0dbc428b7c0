/**
 * What a dialect's fuzz grammar is made of: the `FuzzDialect` shape that each dialect folder's
 * `fuzz.ts` exports as `fuzzGrammar` (docs/dialects.md), and the seeded random values the
 * grammars share. Test support: the fuzzer (fuzz-loop.ts) and the grammars import it, production
 * code never does (eslint.config.js, `sharedTestSupport`).
 */
export type Random = () => number;

/**
 * How the fuzzer treats one dialect: its `src-shared/dialects/<folder>/fuzz.ts` exports one as
 * `fuzzGrammar`, and the fuzzer finds it there (src-main/testing/fuzz-grammars.ts).
 */
export interface FuzzDialect {
  /** One event's data, from the dialect's grammar. */
  event(random: Random): string;
  /**
   * How the provider APIs frame events: an `event:` field naming the JSON `type`, a
   * `sequence_number` counting events (OpenAI), no `[DONE]`; `jsonArray` when the API also
   * streams its events as one JSON array (Gemini without `alt=sse`), which half the
   * generated streams then are.
   */
  framing?: { eventField: boolean; sequenceNumbers: boolean; jsonArray?: boolean };
  /** The event a stream of the dialect opens with, mostly: its marker (the raw format's meta_init announcing it). */
  opening?: string;
  /** A whole stream in the dialect's own framing (a line-framed wire): half of its streams are these. */
  stream?: (random: Random) => string;
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

export function int(random: Random, max: number): number {
  return Math.floor(random() * max);
}

/** Agent ids the upstream grammars stamp on events: two real ones, none, and one no meta_init announces. */
export const AGENT_IDS = [
  '55555555-5555-4555-8555-555555555555',
  '66666666-6666-4666-8666-666666666666',
  '',
  'unknown',
];

/** Pieces of text, escapes and markup among them: every one has broken a decoder somewhere. */
const TEXT = [
  'Let me ',
  'compute',
  ' 12 * 7',
  ' = 84.',
  '日本語',
  '😀',
  'a"b',
  'back\\slash',
  'line\nbreak',
  'cr\rhere',
  '\t',
  '<b>',
  '&amp;',
  ']]>',
  '\u0000',
  '\u001b[2J',
  '\uFEFF',
  '',
];

/**
 * Deepest nesting a generated JSON value reaches: deeper than any recursive walk survives
 * (about 5,000 levels overflow V8's stack in a recursive serialiser), so every walk over
 * decoded values must be iterative. The generator and the checks write JSON with jsonText
 * and stringifyJson, which do not recurse, for the same reason.
 */
export const MAX_GENERATED_NESTING = 6000;

/** One to four pieces of TEXT. */
export function text(random: Random): string {
  let s = '';
  for (let n = 1 + int(random, 4); n > 0; n--) s += pick(random, TEXT);
  return s;
}

/** A JSON value, sometimes deeply nested (arrays or objects), at most MAX_GENERATED_NESTING deep. */
export function jsonValue(random: Random): unknown {
  const roll = random();
  if (roll < 0.9) return pick(random, [text(random), int(random, 1e6), true, false, null, -0.5, 1e308]);
  const depth = 1 + int(random, MAX_GENERATED_NESTING);
  let value: unknown = text(random);
  for (let i = 0; i < depth; i++) value = random() < 0.5 ? [value] : { k: value };
  return value;
}
