/**
 * The words of the two AI SDK wires (docs/protocols/ai-sdk-ui.md): the UI message stream's
 * chunk types (AI SDK 5 and later, `x-vercel-ai-ui-message-stream: v1`) and the v4 data
 * stream's part codes (`x-vercel-ai-data-stream: v1`, one `CODE:JSON` line each).
 */

/** Every chunk type of the UI message stream, besides the open family `data-*`. */
export const UI_CHUNK_TYPES: ReadonlySet<string> = new Set([
  'start',
  'start-step',
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-available',
  'tool-input-error',
  'tool-output-available',
  'tool-output-error',
  'tool-output-denied',
  'tool-approval-request',
  'source-url',
  'source-document',
  'file',
  'message-metadata',
  'finish-step',
  'finish',
  'abort',
  'error',
]);

/** A UI message stream chunk type: a known one, or an application's `data-<name>` part. */
export function isUiChunkType(type: string): boolean {
  return UI_CHUNK_TYPES.has(type) || (type.startsWith('data-') && type.length > 'data-'.length);
}

/** The v4 data stream's part codes, by the name the SDK gives each part. */
export const DATA_STREAM_PARTS = {
  '0': 'text',
  '2': 'data',
  '3': 'error',
  '8': 'message_annotations',
  '9': 'tool_call',
  a: 'tool_result',
  b: 'tool_call_streaming_start',
  c: 'tool_call_delta',
  d: 'finish_message',
  e: 'finish_step',
  f: 'start_step',
  g: 'reasoning',
  h: 'source',
  i: 'redacted_reasoning',
  j: 'reasoning_signature',
  k: 'file',
} as const;

export type DataStreamCode = keyof typeof DATA_STREAM_PARTS;

export function isDataStreamCode(code: string): code is DataStreamCode {
  return Object.hasOwn(DATA_STREAM_PARTS, code);
}

/** The response header that announces the UI message stream. */
export const UI_MESSAGE_STREAM_HEADER = ['x-vercel-ai-ui-message-stream', 'v1'] as const;
/** The response header that announces the v4 data stream. */
export const DATA_STREAM_HEADER = ['x-vercel-ai-data-stream', 'v1'] as const;
