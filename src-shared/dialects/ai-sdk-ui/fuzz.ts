import { jsonText } from '../../json/tree';
import { pick, text, type FuzzDialect, type Random } from '../../testing/fuzz';

/**
 * The fuzzer's grammar of the AI SDK streams (src-shared/testing/fuzz.ts): UI message stream
 * chunks as SSE events, and, for half the streams, a whole v4 data stream of `CODE:JSON` lines.
 * Mostly well formed, ids from small sets so starts, deltas and ends meet; sometimes a field
 * missing or of the wrong kind, a line that is no part, an unknown code.
 */

const IDS = ['t0', 't1', 'r0'];
const CALLS = ['call_0', 'call_1'];
const TOOLS = ['user_confirm', 'get_weather'];

const UI_TYPES = [
  'start',
  'start-step',
  'text-start',
  'text-delta',
  'text-delta',
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
  'source-url',
  'file',
  'data-weather',
  'message-metadata',
  'finish-step',
  'finish',
  'abort',
  'error',
  'text-future',
];

/** One UI message stream chunk. */
function uiChunk(random: Random): string {
  const type = pick(random, UI_TYPES);
  const chunk: Record<string, unknown> = { type };
  const set = (key: string, value: unknown): void => {
    // A field is sometimes missing, or of the wrong kind.
    const roll = random();
    if (roll < 0.03) return;
    chunk[key] = roll < 0.06 ? 7 : value;
  };
  if (type.startsWith('text') || type.startsWith('reasoning')) set('id', pick(random, IDS));
  if (type.endsWith('-delta') && !type.startsWith('tool')) set('delta', text(random));
  if (type.startsWith('tool')) set('toolCallId', pick(random, CALLS));
  if (type === 'tool-input-start' || type === 'tool-input-available' || type === 'tool-input-error')
    set('toolName', pick(random, TOOLS));
  if (type === 'tool-input-delta') set('inputTextDelta', pick(random, ['{"city":', '"Paris"}', '}', text(random)]));
  if (type === 'tool-input-available' || type === 'tool-input-error') set('input', { city: text(random) });
  if (type.endsWith('-error') || type === 'error') set('errorText', text(random));
  if (type === 'tool-output-available') set('output', random() < 0.5 ? text(random) : { ok: true });
  if (type === 'source-url') {
    set('sourceId', 's0');
    set('url', 'https://example.com');
  }
  if (type === 'file') {
    set('url', 'data:image/png;base64,AA==');
    set('mediaType', 'image/png');
  }
  if (type.startsWith('data-')) set('data', { n: Math.floor(random() * 10) });
  if (type === 'start') set('messageId', pick(random, ['msg-0', 'msg-1', '']));
  if (type === 'finish') set('finishReason', pick(random, ['stop', 'tool-calls', 'error']));
  if (type === 'message-metadata') set('messageMetadata', { usage: { inputTokens: 3, outputTokens: 5 } });
  return jsonText(chunk);
}

const CODES = ['0', '0', '0', 'g', '2', '3', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f', 'h', 'i', 'j', 'k', 'x'];

/** One v4 part's value, mostly the kind its code carries. */
function dataValue(code: string, random: Random): unknown {
  if (random() < 0.04) return { wrong: true };
  switch (code) {
    case '0':
    case 'g':
    case '3':
      return text(random);
    case '2':
    case '8':
      return [{ n: 1 }];
    case 'b':
      return { toolCallId: pick(random, CALLS), toolName: pick(random, TOOLS) };
    case 'c':
      return { toolCallId: pick(random, CALLS), argsTextDelta: pick(random, ['{"a":', '1}', text(random)]) };
    case '9':
      return { toolCallId: pick(random, CALLS), toolName: pick(random, TOOLS), args: { a: 1 } };
    case 'a':
      return { toolCallId: pick(random, CALLS), result: text(random) };
    case 'd':
    case 'e':
      return { finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 4 } };
    case 'f':
      return { messageId: 'msg-0' };
    default:
      return { data: text(random) };
  }
}

/** A whole v4 data stream: parts one per line, sometimes a line that is no part, with LF, CRLF or CR. */
function dataStream(random: Random): string {
  const eol = pick(random, ['\n', '\n', '\r\n', '\r']);
  const lines: string[] = [];
  for (let n = 1 + Math.floor(random() * 30); n > 0; n--) {
    const code = pick(random, CODES);
    const roll = random();
    lines.push(
      roll < 0.03
        ? text(random).replace(/[\r\n]/g, ' ')
        : `${code}:${roll < 0.06 ? '{"cut' : jsonText(dataValue(code, random))}`,
    );
  }
  return lines.join(eol) + (random() < 0.8 ? eol : '');
}

export const fuzzGrammar: FuzzDialect = { event: uiChunk, stream: dataStream };
