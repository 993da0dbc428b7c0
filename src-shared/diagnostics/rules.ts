import { RAW_RULES } from '../dialects/anthropic-raw/rules';
import { GEMINI_RULES } from '../dialects/gemini/rules';
import { ENVELOPE_RULES } from '../dialects/json-envelope/rules';
import { JSON_EVENTS_RULES } from '../dialects/json-events/rules';
import { JSON_RPC_RULES } from '../dialects/json-rpc/rules';
import { XML_ITEM_RULES } from '../dialects/legacy-xml/rules';
import { OLLAMA_RULES } from '../dialects/ollama/rules';
import { AG_UI_RULES } from '../dialects/ag-ui/rules';
import { AI_SDK_RULES } from '../dialects/ai-sdk-ui/rules';
import { OPENAI_CHAT_RULES } from '../dialects/openai-chat/rules';
import { PROVIDER_RULES } from '../dialects/provider/rules';
import type { DialectId } from '../dialects/registry';
import { SEGMENT_RULES } from '../dialects/segment-events/rules';
import type { Severity } from './types';

/**
 * The rule catalogue. Ids are stable: users filter on them, CI gates on them and
 * docs/diagnostics.md documents each one with an example. Never rename an id; retire it.
 * The rules every dialect shares are written here; a dialect's own (or its family's) live in
 * its folder, `src-shared/dialects/<folder>/rules.ts`, and are spread in by one line each.
 *
 * Severity follows one principle (docs/diagnostics.md, "Severity"): `error` when data is lost
 * or corrupted on its way to the client (text of an ignored line, an event never dispatched,
 * bytes replaced, a payload split or merged, a block without its end); `warning` for a
 * deviation from the protocol that loses nothing; `info` for what the protocol allows or the
 * format cannot say.
 */
export interface RuleInfo {
  severity: Severity;
  layer:
    'sse' | 'dialect' | 'xml' | 'raw' | 'provider' | 'reconstruct' | 'inline' | 'segments' | 'stream' | 'recording';
  title: string;
  /**
   * The dialects the rule belongs to; absent: every dialect. A finding of a rule that does
   * not apply to the leg's dialect is never reported (the pipeline drops it), so a rule of
   * one wire protocol (the upstream agent's 2 KiB chunk budget) cannot fire on another.
   */
  dialects?: readonly DialectId[];
}

/** The upstream agent's own dialects: its chunk budget, `[DONE]`, meta_init and XML items are its rules. */
const UPSTREAM: readonly DialectId[] = ['json', 'xml', 'raw'];

export const RULES = {
  // SSE framing (WHATWG "interpreting an event stream")
  'sse.ignored-line': {
    severity: 'error',
    layer: 'sse',
    title: 'Line is not an SSE field and was ignored (a raw newline or CR inside a payload loses data)',
  },
  'sse.early-dispatch': {
    severity: 'error',
    layer: 'sse',
    title: 'Event dispatched by a blank line embedded in a payload',
  },
  'sse.oversize-line': {
    severity: 'warning',
    layer: 'sse',
    title: 'data: line longer than the configured budget',
    dialects: UPSTREAM,
  },
  'sse.multi-line-data': { severity: 'info', layer: 'sse', title: 'One message split over several data: lines' },
  'sse.invalid-utf8': { severity: 'error', layer: 'sse', title: 'Invalid UTF-8 bytes replaced by U+FFFD' },
  'sse.event-without-data': {
    severity: 'error',
    layer: 'sse',
    title: 'Event with an event: type but no data: line; dispatched as nothing (lost)',
  },
  'sse.fields-without-event': {
    severity: 'info',
    layer: 'sse',
    title: 'Stream ends with fields that dispatch no event (id, retry, an event: with no type)',
  },
  'sse.unterminated-event': {
    severity: 'error',
    layer: 'sse',
    title: 'Stream ended inside an event; the event was not dispatched',
  },
  'sse.unterminated-last-event': {
    severity: 'warning',
    layer: 'sse',
    title: 'Last event has no blank line after it: an EventSource drops it; its data is complete, so it is decoded',
  },
  'sse.id-with-nul': { severity: 'warning', layer: 'sse', title: 'id field contains NUL and was ignored' },
  'sse.invalid-retry': {
    severity: 'warning',
    layer: 'sse',
    title: 'retry field is not all ASCII digits and was ignored',
  },
  'sse.unknown-field': { severity: 'info', layer: 'sse', title: 'Field name not defined by SSE was ignored' },

  // Stream lifecycle, common to every dialect
  'stream.error-frame': {
    severity: 'error',
    layer: 'stream',
    title: 'Server sent an error frame {"error","message","traceback"}',
  },
  'stream.compressed-body': {
    severity: 'error',
    layer: 'stream',
    title: 'Body is gzip-compressed but no Content-Encoding says so; decoded as text it is garbage',
  },
  'stream.after-done': { severity: 'error', layer: 'stream', title: 'Event received after [DONE]' },
  'stream.done-joined': {
    severity: 'error',
    layer: 'stream',
    title: '[DONE] sent as the last data line of another event, with no blank line before it; clients fail on it',
  },
  'stream.unterminated-line': {
    severity: 'error',
    layer: 'stream',
    title: 'A line-framed stream (the AI SDK v4 data stream) ended inside a line; its bytes are lost',
  },
  'stream.missing-done': {
    severity: 'warning',
    layer: 'stream',
    title: 'Stream ended without [DONE]',
    dialects: [...UPSTREAM, 'openai-chat'],
  },
  'stream.meta-init-not-first': {
    severity: 'warning',
    layer: 'stream',
    title: 'meta_init arrives after the agent already sent content in this leg',
    dialects: UPSTREAM,
  },
  'stream.format-undetected': {
    severity: 'info',
    layer: 'stream',
    title: 'Wire format could not be detected from the first events',
  },
  'stream.format-mismatch': {
    severity: 'warning',
    layer: 'stream',
    title: 'meta_init announces a format other than the one decoded',
    dialects: UPSTREAM,
  },

  // A body framed as one streamed JSON array (pipeline/json-array-framer.ts), not SSE
  'json-array.malformed': {
    severity: 'error',
    layer: 'stream',
    title: 'JSON array body has bytes that are no part of the array (skipped), or elements without their comma',
  },
  'json-array.cut-element': {
    severity: 'error',
    layer: 'stream',
    title: 'JSON array body ended inside an element; the element was not decoded',
  },
  'json-array.unclosed': {
    severity: 'warning',
    layer: 'stream',
    title: 'JSON array body ended after complete elements (or none) without its closing ]',
  },
  'json-array.object-body': {
    severity: 'info',
    layer: 'stream',
    title: 'The body is a JSON object over several lines, not a stream: each top-level object is one event',
  },

  // JSON, in any dialect; then the JSON envelope dialect's own
  'json.invalid': { severity: 'error', layer: 'dialect', title: 'Event data is not valid JSON' },
  ...JSON_EVENTS_RULES,
  ...ENVELOPE_RULES,

  // Legacy XML items (the xml dialect, and the raw format's items)
  ...XML_ITEM_RULES,

  // Anthropic raw dialect
  ...RAW_RULES,

  // Provider APIs streamed directly (Anthropic Messages, OpenAI Responses)
  ...PROVIDER_RULES,

  // Reconstruction
  'block.id-changed': { severity: 'error', layer: 'reconstruct', title: 'id or name changed inside one block' },
  'block.final-with-content': {
    severity: 'warning',
    layer: 'reconstruct',
    title: 'Final marker of a streamed block carries content',
  },
  'block.content-after-final': {
    severity: 'error',
    layer: 'reconstruct',
    title: 'Chunk for a payload id that already completed with its final envelope',
  },
  'block.not-finalised': {
    severity: 'warning',
    layer: 'reconstruct',
    title:
      'Streamed block (text, thinking) got no final envelope before a block of another type began, and its type streamed on; closed there, kept apart',
  },
  'block.unterminated': { severity: 'error', layer: 'reconstruct', title: 'Block still open at the end of the stream' },
  'block.content-capped': {
    severity: 'info',
    layer: 'reconstruct',
    title: 'Block longer than the content held in memory: its first characters are shown',
  },
  'block.restarted': {
    severity: 'warning',
    layer: 'reconstruct',
    title: 'Block restarted without being closed (retried API call replayed it)',
  },
  'citation.orphan': {
    severity: 'warning',
    layer: 'reconstruct',
    title: 'Citation with no preceding text block of that agent',
  },
  'tool-result-image.orphan': {
    severity: 'warning',
    layer: 'reconstruct',
    title: 'tool_result_image with no open tool_result',
  },
  'tool.result-without-call': {
    severity: 'warning',
    layer: 'reconstruct',
    title: 'Tool result whose id matches no tool call',
  },
  'tool.call-without-result': {
    severity: 'info',
    layer: 'reconstruct',
    title: 'Tool call that never got a result in this session',
  },

  // Protocols inside the model's text (the inline stage over text blocks, docs/inline.md)
  'inline.unclosed': {
    severity: 'warning',
    layer: 'inline',
    title: 'Action, segment tag or sentinel in the model text left unclosed at the end of the block',
  },
  'inline.mismatched-close': {
    severity: 'warning',
    layer: 'inline',
    title: 'Closing tag in the model text that closes nothing open',
  },
  'inline.no-action': {
    severity: 'warning',
    layer: 'inline',
    title: 'Turn written in the XML tool protocol has no tool call and no <attempt_completion>',
  },
  'inline.multiple-actions': {
    severity: 'warning',
    layer: 'inline',
    title: 'Turn has more than one action where the protocol asks for exactly one',
  },
  'inline.missing-param': {
    severity: 'warning',
    layer: 'inline',
    title: 'Tool tag lacks a parameter its configuration (or the protocol) requires',
  },
  'inline.invalid-sentinel': {
    severity: 'warning',
    layer: 'inline',
    title: 'Sentinel header is not a JSON object with a "type"; the sentinel is kept as text',
  },
  'inline.text-after-action': {
    severity: 'info',
    layer: 'inline',
    title: "Text or reasoning after the turn's terminal action",
  },
  'inline.think-open-implied': {
    severity: 'info',
    layer: 'inline',
    // Not "at the start of a text block": the tag comes after the reasoning it closes.
    title: 'A </think> with only text before it closes a <think> the prompt opened: that text is reasoning',
  },

  // Segment events dialect (SEGMENT_START / SEGMENT_CONTENT / SEGMENT_END over SSE)
  ...SEGMENT_RULES,
  ...OPENAI_CHAT_RULES,
  ...AG_UI_RULES,

  // JSON-RPC 2.0 over SSE: MCP Streamable HTTP and A2A streaming
  ...JSON_RPC_RULES,

  // Gemini streamGenerateContent
  ...GEMINI_RULES,

  // The Vercel AI SDK's stream to a useChat frontend (UI message stream, v4 data stream)
  ...AI_SDK_RULES,

  // Ollama's native API (/api/chat, /api/generate: NDJSON)
  ...OLLAMA_RULES,

  // Recording files and imports (findings about the file, located by file byte offset)
  'recording.torn-tail': {
    severity: 'error',
    layer: 'recording',
    title: 'Last line of the recording is incomplete (the writer stopped mid-write); it was skipped',
  },
  'recording.damaged-line': {
    severity: 'error',
    layer: 'recording',
    title: 'Line of the recording is not a valid record; skipped, reading continues with the next line',
  },
  'recording.unknown-record': {
    severity: 'info',
    layer: 'recording',
    title: 'Record type not known to this version; skipped',
  },
  'recording.inconsistent': {
    severity: 'warning',
    layer: 'recording',
    title: 'Record refers to a leg that was never started or already ended',
  },
  'recording.chunk-sequence': {
    severity: 'error',
    layer: 'recording',
    title: 'Chunk records out of sequence: a chunk line was duplicated (skipped) or deleted (a hole in the stream)',
  },
  'recording.unfinished-leg': {
    severity: 'warning',
    layer: 'recording',
    title: 'Leg has no end record (the recording stopped while it streamed)',
  },
  // What a `check` report opened in the app says failed on the recording. A warning: it is
  // the user's expectation that failed, not the stream that lost data (an error of this
  // layer would make the session "truncated", LostData).
  'recording.check-failed': {
    severity: 'warning',
    layer: 'recording',
    title: 'An assertion of stream-inspector check failed on this recording (from the JUnit report it was opened from)',
  },
  'import.skipped-item': {
    severity: 'error',
    layer: 'recording',
    title: 'Item of an imported file cannot be an event and was skipped',
  },
  'import.skipped-prefix': {
    severity: 'warning',
    layer: 'recording',
    title:
      'Capture does not start with an event (cut mid-line, extra byte-order marks, a line that is no field); decoded from the first event on',
  },
  'import.leg-sizes': {
    severity: 'warning',
    layer: 'recording',
    title: "Capture's leg header names sizes that do not add up to the file; it is read as one stream",
  },
  'import.truncated': {
    severity: 'error',
    layer: 'recording',
    title: 'Imported file ends inside a JSON value or has trailing data',
  },
} as const satisfies Record<string, RuleInfo>;

export type RuleId = keyof typeof RULES;

/** The dialects a rule belongs to; undefined when it applies to every dialect. */
export function ruleDialects(id: RuleId): readonly string[] | undefined {
  return (RULES[id] as RuleInfo).dialects;
}

/** Whether a rule applies to a dialect (`undefined` while the leg's dialect is not yet known: every rule may). */
export function ruleAppliesTo(id: RuleId, dialect: string | undefined): boolean {
  const dialects = ruleDialects(id);
  return dialects === undefined || dialect === undefined || dialects.includes(dialect);
}
