import type { SniffedFrame } from '../sniff';
import type { DialectModule } from '../types';
import { aiSdkContinuation } from './continuation';
import { isDataStreamPart } from './data-stream';
import { createAiSdkUiDecoder } from './decoder';
import { DATA_STREAM_HEADER, isDataStreamCode, isUiChunkType, UI_MESSAGE_STREAM_HEADER } from './vocabulary';

const OPEN_BRACE = 0x7b;

/**
 * A UI message stream chunk: a JSON object whose `type` is one of the stream's chunk types
 * (or `data-<name>`), with none of the other dialects' markers (an envelope's `agent`, the
 * Responses API's `sequence_number`); its error chunk has `errorText` (Anthropic's has an
 * `error` object). An `event:` field, which the SDK never sends, must name the same type.
 */
function isUiChunk(frame: SniffedFrame): boolean {
  if (frame.data.charCodeAt(frame.start) !== OPEN_BRACE || !frame.data.includes('"type"')) return false;
  const object = frame.json();
  const type = object?.['type'];
  if (typeof type !== 'string' || object === undefined || !isUiChunkType(type)) return false;
  if ('agent' in object || 'sequence_number' in object) return false;
  if (frame.event !== '' && frame.event !== type) return false;
  return type !== 'error' || typeof object['errorText'] === 'string';
}

/** The Vercel AI SDK's stream to a `useChat` frontend: the UI message stream (SSE) or the v4 data stream (lines). */
export const aiSdkUiDialect: DialectModule<'ai-sdk-ui'> = {
  id: 'ai-sdk-ui',
  label: 'Vercel AI SDK UI stream',
  detect: (frame) => isUiChunk(frame) || (frame.event === '' && isDataStreamPart(frame.data)),
  create: createAiSdkUiDecoder,
  syntax: 'json',
  terminator: 'dialect',
  terminalEvent: 'a finish part (in the v4 data stream, a d: line)',
  clientTools: aiSdkContinuation,
  // Each wire's own header names it; the bytes still win when another dialect claims them.
  evidence: {
    headers: [UI_MESSAGE_STREAM_HEADER, DATA_STREAM_HEADER].map(([name, value]) => ({ name, value })),
  },
  // Parts that are neither text nor tools (an application's `data-<name>` parts keep their own type).
  blockKinds: {
    'source-url': { label: 'Source URL' },
    'source-document': { label: 'Source document' },
    source: { label: 'Source' },
    file: { label: 'File' },
    data: { label: 'Data' },
    message_annotations: { label: 'Message annotations' },
  },
  lineFramed: {
    headers: [DATA_STREAM_HEADER],
    prefixBytes: 2,
    startsLike: (prefix) => prefix.charCodeAt(1) === 0x3a /* : */ && isDataStreamCode(prefix.charAt(0)),
    isComplete: isDataStreamPart,
  },
};
