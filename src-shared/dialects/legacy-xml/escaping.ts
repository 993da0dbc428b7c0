/**
 * The per-item escaping upstream applies before an XML item becomes one SSE `data:` line
 * (docs/protocols/upstream-protocol.md §5 #23). Two producers, two schemes:
 *
 * - formatter items (text/thinking tags and deltas, tool_call and server_tool_call tags,
 *   citations, server_tool_result, error) pass through `stream_xml_to_aqueue`: first
 *   `\` → `\\`, then LF → `\n`. The inverse is one left-to-right scan.
 * - the agent layer's tool_result CDATA passes through `_escape_tool_result_cdata`:
 *   `]]>` → `]]]]><![CDATA[>`, CR/CRLF → LF, LF → `\n`, with no backslash doubling, so a
 *   literal backslash-n in a tool result cannot be told from a newline.
 *
 * Other agent-layer items (meta_init, meta_final, awaiting_frontend_tools, meta_files) are
 * put on the queue as they are.
 *
 * Both schemes are here in both directions: the decoder undoes them, and the demo agent and
 * the tests write streams the way upstream does.
 */
import { createUtf8Decoder, encodeUtf8 } from '../../text/utf8';

const BACKSLASH = 0x5c;
const LETTER_N = 0x6e;
const LF = 0x0a;

/** `stream_xml_to_aqueue`: backslashes doubled, then LF written as `\n`. CR passes through (an upstream hole). */
export function xmlStreamEscape(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
}

/**
 * Undo `stream_xml_to_aqueue`: `\\` → `\`, `\n` → LF, scanning left to right. A backslash
 * that starts neither could not have been written by it: such a backslash proves the item was
 * never escaped (the stream predates the escaping; the captured 2025-12 stream has `\"` and
 * `\u2713` inside tool arguments and results), and its index is returned instead of text.
 * One scan does both, since every escaped item is checked before it is unescaped.
 */
export function unescapeFormatterItem(text: string): string | number {
  const i = text.indexOf('\\');
  if (i === -1) return text;
  if (text.length >= BYTEWISE_MIN_CHARS) {
    const bytewise = unescapeAsciiBytewise(text, i);
    if (bytewise !== null) return bytewise;
  }
  return unescapePiecewise(text, i);
}

/**
 * `unescapeFormatterItem(text)` when it is done on bytes (a long ASCII item holding a
 * backslash): the result is decoded from them, a string that shares no memory with `text`.
 * Null for any other item, and for one with a backslash the escaping cannot produce.
 */
export function unescapeLongAscii(text: string): string | null {
  if (text.length < BYTEWISE_MIN_CHARS) return null;
  const first = text.indexOf('\\');
  if (first === -1) return null;
  const bytewise = unescapeAsciiBytewise(text, first);
  return typeof bytewise === 'string' ? bytewise : null;
}

/** `unescapeFormatterItem` one string piece per escape, from the first backslash, at `first`. */
function unescapePiecewise(text: string, first: number): string | number {
  let i = first;
  let out = '';
  let from = 0;
  while (i !== -1) {
    const next = text.charCodeAt(i + 1);
    if (next !== BACKSLASH && next !== LETTER_N) return i;
    out += text.slice(from, i) + (next === BACKSLASH ? '\\' : '\n');
    from = i + 2;
    i = text.indexOf('\\', from);
  }
  return out + text.slice(from);
}

/**
 * From this length on, an item is unescaped as bytes when it is ASCII. A tool call's arguments
 * are JSON whose every `\\n` and `\\"` arrives doubled: tens of thousands of escapes in one
 * item, which the scan above turns into as many string pieces that a reader then copies
 * together; the bytes take one native encode, a loop and one decode (about 0.6× the time on
 * the decode benchmark's tool calls). A short item (a delta) is not worth the decoder calls.
 */
const BYTEWISE_MIN_CHARS = 1024;

const utf8 = createUtf8Decoder();

/**
 * `unescapeFormatterItem` of ASCII `text` whose first backslash is at `from`, done on its UTF-8
 * bytes in place (unescaping only shortens); null when `text` is not ASCII. ASCII decodes to a
 * string of one byte a character.
 */
function unescapeAsciiBytewise(text: string, from: number): string | number | null {
  const bytes = encodeUtf8(text);
  if (bytes.length !== text.length) return null;
  const length = bytes.length;
  let written = from;
  let read = from;
  // `read` is at a backslash at the top of each turn; the inner loop copies the run up to the
  // next one (a tight loop: about 0.7x the time of one that tests every byte for both cases).
  while (read < length) {
    const next = bytes[read + 1];
    if (next === BACKSLASH) bytes[written++] = BACKSLASH;
    else if (next === LETTER_N) bytes[written++] = LF;
    else return read;
    read += 2;
    let byte: number;
    while (read < length && (byte = bytes[read] as number) !== BACKSLASH) {
      bytes[written++] = byte;
      read++;
    }
  }
  return utf8.decode(bytes.subarray(0, written));
}

const CDATA_SPLIT = ']]]]><![CDATA[>';

/** Join the `]]]]><![CDATA[>` split upstream uses to keep `]]>` inside one CDATA section. */
export function joinCdataSplits(text: string): string {
  return text.includes(CDATA_SPLIT) ? text.replaceAll(CDATA_SPLIT, ']]>') : text;
}

/** `_escape_tool_result_cdata`: protect `]]>`, fold CR/CRLF to LF, write LF as `\n` (no backslash doubling). */
export function escapeToolResultCdata(content: string): string {
  if (!content) return '';
  return content.replaceAll(']]>', CDATA_SPLIT).replaceAll('\r\n', '\n').replaceAll('\r', '\n').replaceAll('\n', '\\n');
}

/** Undo `_escape_tool_result_cdata` on the content of a tool_result CDATA section. */
export function unescapeToolResultCdata(content: string, newlinesEscaped: boolean): string {
  const joined = joinCdataSplits(content);
  return newlinesEscaped && joined.includes('\\n') ? joined.replaceAll('\\n', '\n') : joined;
}
