/**
 * A seeded fuzzer for the whole decoder (bytes → frames → envelopes → blocks). Inputs are
 * real upstream streams mutated at the byte and line level, and streams generated from each
 * dialect's grammar; every input is decoded whole and at two random splittings and must
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
import { DIALECT_IDS, type DialectId } from '../dialects/registry';
import { jsonText, stringifyJson } from '../json/tree';
import { decodeLegs } from '../pipeline/session-decoder';
import type { DecodeResult } from '../pipeline/types';
import type { EnvelopeKind } from '../envelope/vocabulary';
import { seededRandom, splitRandom } from '../sse/rechunk';
import { encodeUtf8 } from '../text/utf8';

export type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function int(random: Random, max: number): number {
  return Math.floor(random() * max);
}

// ---------------------------------------------------------------------------------------
// Structure-aware generation, one grammar per dialect.

const AGENTS = ['55555555-5555-4555-8555-555555555555', '66666666-6666-4666-8666-666666666666', '', 'unknown'];
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
// Known kinds (checked against the envelope table) and one end-turn hook type the table deliberately lacks. The list,
// not the table, so that a kind added to the table does not shift every seeded case.
const ENVELOPE_TYPES = [
  'meta_init',
  'thinking',
  'text',
  'citation',
  'tool_call',
  'server_tool_call',
  'tool_result',
  'tool_result_image',
  'server_tool_result',
  'awaiting_frontend_tools',
  'meta_files',
  'error',
  'meta_final',
  'rollback',
  'hook_progress',
] satisfies readonly (EnvelopeKind | 'hook_progress')[];
const XML_TAGS = [
  'text',
  'thinking',
  'tool_call',
  'server_tool_call',
  'tool_result',
  'server_tool_result',
  'citations',
  'meta_files',
  'web_search_tool_result',
  'rollback',
];
const RAW_BLOCKS = ['text', 'thinking', 'tool_use', 'server_tool_use', 'web_search_tool_result'];
const RAW_DELTAS = [
  'text_delta',
  'thinking_delta',
  'input_json_delta',
  'signature_delta',
  'citations_delta',
  'bogus_delta',
];

/**
 * Deepest nesting a generated JSON value reaches: deeper than any recursive walk survives
 * (about 5,000 levels overflow V8's stack in a recursive serialiser), so every walk over
 * decoded values must be iterative. The generator and the checks write JSON with jsonText
 * and stringifyJson, which do not recurse, for the same reason.
 */
export const MAX_GENERATED_NESTING = 6000;

function text(random: Random): string {
  let s = '';
  for (let n = 1 + int(random, 4); n > 0; n--) s += pick(random, TEXT);
  return s;
}

/** A JSON value, sometimes deeply nested (arrays or objects), at most MAX_GENERATED_NESTING deep. */
function jsonValue(random: Random): unknown {
  const roll = random();
  if (roll < 0.9) return pick(random, [text(random), int(random, 1e6), true, false, null, -0.5, 1e308]);
  const depth = 1 + int(random, MAX_GENERATED_NESTING);
  let value: unknown = text(random);
  for (let i = 0; i < depth; i++) value = random() < 0.5 ? [value] : { k: value };
  return value;
}

function jsonEnvelope(random: Random): string {
  const envelope: Record<string, unknown> = {};
  const type = pick(random, ENVELOPE_TYPES);
  if (random() < 0.95) envelope['type'] = random() < 0.97 ? type : jsonValue(random);
  if (random() < 0.95) envelope['agent'] = random() < 0.97 ? pick(random, AGENTS) : jsonValue(random);
  if (random() < 0.95) envelope['final'] = random() < 0.95 ? random() < 0.3 : jsonValue(random);
  if (random() < 0.95) {
    const payload =
      type.startsWith('meta_') || type.includes('tool')
        ? jsonText({ format: 'json', agent_uuid: pick(random, AGENTS), value: jsonValue(random) })
        : text(random);
    envelope['delta'] = random() < 0.95 ? payload : jsonValue(random);
  }
  if (random() < 0.3) envelope['id'] = `toolu_${int(random, 4)}`;
  if (random() < 0.3) envelope['name'] = pick(random, ['multiply', 'user_confirm', 'web_search']);
  if (random() < 0.1) envelope['extra'] = jsonValue(random);
  return jsonText(envelope);
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function xmlItem(random: Random): string {
  const tag = pick(random, XML_TAGS);
  switch (int(random, 7)) {
    case 0:
      return `<meta_init data="${escapeAttribute(jsonText({ format: 'xml', agent_uuid: pick(random, AGENTS), parent_agent_uuid: random() < 0.3 ? pick(random, AGENTS) : null }))}"></meta_init>`;
    case 1:
      return `<content-block-${tag}>`;
    case 2:
      return `</content-block-${tag}>`;
    case 3:
      return `<content-block-${tag} id="toolu_${int(random, 4)}" name="f" arguments="${escapeAttribute(jsonText(jsonValue(random)))}"></content-block-${tag}>`;
    case 4:
      return `<content-block-${tag} id="toolu_${int(random, 4)}" name="f"><![CDATA[${text(random)}${random() < 0.8 ? ']]>' : ''}</content-block-${random() < 0.9 ? tag : pick(random, XML_TAGS)}>`;
    case 5:
      return `<meta_final data="${random() < 0.8 ? escapeAttribute(jsonText(jsonValue(random))) : '&bogus;&#xZZ;&'}"></meta_final>`;
    default:
      return text(random);
  }
}

/** An Anthropic Messages stream event (the raw format forwards them, the Messages API sends them). */
function anthropicEvent(random: Random): string {
  const index = int(random, 3);
  switch (int(random, 6)) {
    case 0:
      return jsonText({
        type: 'message_start',
        message: { id: `msg_${int(random, 9)}`, content: [], model: 'claude', role: 'assistant' },
      });
    case 1:
      return jsonText({
        type: 'content_block_start',
        index,
        content_block: {
          type: pick(random, RAW_BLOCKS),
          text: '',
          id: `toolu_${int(random, 4)}`,
          name: 'f',
          input: {},
        },
      });
    case 2:
      return jsonText({
        type: 'content_block_delta',
        index,
        delta: {
          type: pick(random, RAW_DELTAS),
          text: text(random),
          thinking: text(random),
          partial_json: text(random),
        },
      });
    case 3:
      return jsonText({ type: 'content_block_stop', index });
    case 4:
      return jsonText({
        type: pick(random, ['message_delta', 'message_stop', 'ping', 'content_block_flush']),
        delta: { stop_reason: pick(random, ['end_turn', 'tool_use', 'max_tokens', null]) },
        usage: jsonValue(random),
      });
    default:
      return jsonText({
        type: 'error',
        error: { type: pick(random, ['overloaded_error', 'api_error']), message: text(random) },
      });
  }
}

/** The raw format: Anthropic events mixed with the agent layer's XML items. */
function rawEvent(random: Random): string {
  return random() < 0.85 ? anthropicEvent(random) : xmlItem(random);
}

const RESPONSES_ITEMS = [
  'message',
  'function_call',
  'reasoning',
  'web_search_call',
  'image_generation_call',
  'future_call',
];
const RESPONSES_DELTAS = [
  'response.output_text.delta',
  'response.function_call_arguments.delta',
  'response.reasoning_summary_text.delta',
  'response.refusal.delta',
  'response.future.delta',
];

/** An OpenAI Responses API stream event; sequence numbers are left to the stream (see generateStream). */
function responsesEvent(random: Random): string {
  const common = { output_index: int(random, 3), item_id: `item_${int(random, 3)}`, content_index: int(random, 2) };
  const response = () => ({
    id: 'resp_1',
    object: 'response',
    status: pick(random, ['in_progress', 'completed', 'failed', 'incomplete']),
    output: [],
    error: random() < 0.2 ? { code: 'server_error', message: text(random) } : null,
  });
  switch (int(random, 7)) {
    case 0:
      return jsonText({
        type: pick(random, ['response.created', 'response.in_progress', 'response.queued']),
        response: response(),
      });
    case 1:
      return jsonText({
        type: pick(random, ['response.output_item.added', 'response.output_item.done']),
        ...common,
        item: {
          id: common.item_id,
          type: pick(random, RESPONSES_ITEMS),
          status: 'in_progress',
          name: 'f',
          arguments: text(random),
        },
      });
    case 2:
      return jsonText({
        type: pick(random, ['response.content_part.added', 'response.content_part.done']),
        ...common,
        part: { type: pick(random, ['output_text', 'refusal']), text: text(random), annotations: [] },
      });
    case 3:
    case 4:
      return jsonText({
        type: pick(random, RESPONSES_DELTAS),
        ...common,
        delta: random() < 0.95 ? text(random) : jsonValue(random),
      });
    case 5:
      return jsonText({
        type: pick(random, [
          'response.output_text.done',
          'response.function_call_arguments.done',
          'response.output_text.annotation.added',
        ]),
        ...common,
        text: text(random),
        arguments: text(random),
        annotation: { type: 'url_citation', url: 'https://example.com', title: text(random) },
      });
    default:
      return jsonText({
        type: pick(random, ['response.completed', 'response.failed', 'response.incomplete', 'error']),
        response: response(),
        code: 'rate_limit_exceeded',
        message: text(random),
      });
  }
}

/** How the fuzzer treats one dialect. Every registered dialect must have one (the type says so). */
export interface FuzzDialect {
  /** One event's data, from the dialect's grammar. */
  event(random: Random): string;
  /**
   * How the provider APIs frame events: an `event:` field naming the JSON `type`, a
   * `sequence_number` counting events (OpenAI), no `[DONE]`.
   */
  framing?: { eventField: boolean; sequenceNumbers: boolean };
  /** The event a stream of the dialect opens with, mostly: its marker (the raw format's meta_init announcing it). */
  opening?: string;
}

/** A segment event (docs/inline.md), mostly well formed: ids from a small set so starts, contents and ends meet. */
function segmentEvent(random: Random): string {
  const event: Record<string, unknown> = {};
  if (random() < 0.97)
    event['type'] =
      random() < 0.97 ? pick(random, ['SEGMENT_START', 'SEGMENT_CONTENT', 'SEGMENT_END']) : jsonValue(random);
  if (random() < 0.97) event['segment_id'] = random() < 0.97 ? `seg_${int(random, 4)}` : jsonValue(random);
  if (event['type'] === 'SEGMENT_START')
    event['segment_type'] = pick(random, ['text', 'write_file', 'run_bash', 'tool_call', 'reasoning', 'diagram']);
  event['payload'] =
    event['type'] === 'SEGMENT_CONTENT'
      ? { delta: random() < 0.95 ? text(random) : jsonValue(random) }
      : { metadata: random() < 0.5 ? { path: '/a.py' } : {} };
  return jsonText(event);
}

export const FUZZ_DIALECTS: Record<DialectId, FuzzDialect> = {
  json: { event: jsonEnvelope },
  xml: { event: xmlItem },
  raw: { event: rawEvent, opening: `<meta_init data="${escapeAttribute(jsonText({ format: 'raw' }))}"></meta_init>` },
  'anthropic-messages': { event: anthropicEvent, framing: { eventField: true, sequenceNumbers: false } },
  'openai-responses': { event: responsesEvent, framing: { eventField: true, sequenceNumbers: true } },
  segments: { event: segmentEvent },
};

/** The event as its dialect frames it: the `event:` field and the sequence number, most of the time right. */
function framed(dialect: FuzzDialect, data: string, sequence: number, random: Random): { field: string; data: string } {
  const framing = dialect.framing;
  if (!framing) return { field: '', data };
  const object = data.startsWith('{') ? (JSON.parse(data) as Record<string, unknown>) : undefined;
  if (object && framing.sequenceNumbers)
    object['sequence_number'] = random() < 0.95 ? sequence : int(random, sequence + 2);
  const type = object?.['type'];
  const field =
    framing.eventField && typeof type === 'string' && random() < 0.97
      ? `event: ${random() < 0.97 ? type : text(random)}`
      : '';
  return { field, data: object ? jsonText(object) : data };
}

const FINAL_MARKERS = ['[DONE]', jsonText({ error: 'APIStatusError', message: 'Overloaded', traceback: 'Traceback…' })];

/** A stream of grammar events, mostly well framed, sometimes with other line endings or split data lines. */
export function generateStream(dialect: FuzzDialect, random: Random): Uint8Array {
  const eol = random() < 0.8 ? '\n' : pick(random, ['\r', '\r\n']);
  const events: string[] = [];
  const count = 1 + int(random, 40);
  if (dialect.opening !== undefined && random() < 0.95) events.push(`data: ${dialect.opening}${eol}${eol}`);
  for (let n = 0; n < count; n++) {
    const { field, data } = framed(dialect, dialect.event(random), n, random);
    // A payload holding line breaks is sent as several data: lines, as an EventSource joins them.
    const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}${eol}`);
    events.push(`${field === '' ? '' : `${field.replace(/[\r\n]/g, ' ')}${eol}`}${lines.join('')}${eol}`);
  }
  if (!dialect.framing && random() < 0.7) events.push(`data: ${pick(random, FINAL_MARKERS)}${eol}${eol}`);
  return encodeUtf8(events.join(''));
}

/** Generated streams one after the other, up to at least `size` bytes (memory checks). */
export function generateStreams(dialect: FuzzDialect, random: Random, size: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let total = 0; total < size;) {
    const part = generateStream(dialect, random);
    parts.push(part);
    total += part.length;
  }
  return concatBytes(parts);
}

// ---------------------------------------------------------------------------------------
// Mutations of real streams.

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

// ---------------------------------------------------------------------------------------
// Checks.

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

function decodeChunks(chunks: readonly Uint8Array[]): DecodeResult {
  return decodeLegs([chunks.map((bytes) => ({ bytes }))]);
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
  let lineStart = true;
  let inComment = false;
  for (let i = Math.max(tailStart, bomEnd); i < bytes.length; i++) {
    const b = bytes[i] as number;
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

// ---------------------------------------------------------------------------------------
// The loop.

/** A real stream to mutate, and the dialect it is written in. */
export interface FuzzSeed {
  name: string;
  dialect: DialectId;
  bytes: Uint8Array;
}

export interface FuzzInput {
  index: number;
  dialect: DialectId;
  /** What it was made from: a seed's name or `generated`, then each mutation. */
  recipe: string[];
  bytes: Uint8Array;
}

export interface FuzzOptions {
  seed: number;
  seeds: readonly FuzzSeed[];
  limits: MutationLimits;
}

/** The `index`-th input of a run: a function of (seed, index) only, so any input can be rebuilt. */
export function makeInput(options: FuzzOptions, index: number): FuzzInput {
  const random = seededRandom((options.seed * 1_000_003 + index) >>> 0);
  const dialect = DIALECT_IDS[index % DIALECT_IDS.length] as DialectId;
  const ofDialect = options.seeds.filter((s) => s.dialect === dialect);
  const all = mutations(options.limits);
  let bytes: Uint8Array;
  const recipe: string[] = [];
  if (ofDialect.length > 0 && random() < 0.7) {
    const base = pick(random, ofDialect);
    bytes = base.bytes;
    recipe.push(base.name);
  } else {
    bytes = generateStream(FUZZ_DIALECTS[dialect], random);
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
  return { input, failure: checkInput(input.bytes, fuzzSplittings(input.bytes, random)) };
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
export function failsWith(kind: string): (bytes: Uint8Array) => boolean {
  return (bytes) => checkInput(bytes, fuzzSplittings(bytes, seededRandom(bytes.length)))?.kind === kind;
}
