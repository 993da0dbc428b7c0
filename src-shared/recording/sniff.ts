import { DIALECT_REGISTRY } from '../dialects/registry';
import { DIFF_EXPORT_FORMAT } from '../diff/export-format';
import { sniffFrame } from '../dialects/sniff';
import { isJsonObject, parseJson } from '../json/values';
import { announcedLineFraming, framingOfHead, isJsonMediaType, lineFramingOf } from '../pipeline/leg-framing';
import { createUtf8Decoder } from '../text/utf8';
import { CHECK_REPORT_WHAT, isCheckReport } from './check-report';
import { RECORDING_MAGIC } from './format';
import { isLegHeadObject } from './envelope-export';
import { convertItem, itemShape, type ItemShape } from './items';
import { createJsonArraySplitter } from './json-array-splitter';
import { RECORDING_FORMAT, type HeaderList, type RecordedResponse, type SourceKind } from './types';

/**
 * Recognising an imported file from its first bytes, whatever its name: a recording, a raw
 * `text/event-stream` capture (optionally with the HTTP head `curl -i` prints), a capture of a
 * line-framed wire a dialect declares (the AI SDK's v4 data stream), NDJSON or a JSON array of
 * envelopes or of Anthropic events, a streamed JSON array body of API responses (Gemini without
 * `alt=sse`), a JSON object pretty-printed (a whole response body: one event), or a HAR file.
 */

export const EXPECTED_KINDS =
  'a recording, SSE capture, NDJSON/JSON of envelopes or Anthropic events, NDJSON of stream events, a streamed JSON array of API responses, or HAR';

export type SniffResult =
  | {
      ok: true;
      kind: SourceKind;
      /** How the items of an envelope/event file are laid out. */
      container?: 'ndjson' | 'json-array';
      /** Where the content starts (after an HTTP head). */
      bodyOffset: number;
      /** The HTTP head of a `curl -i` capture. */
      response?: RecordedResponse;
      /** An SSE capture that does not start with an event: what was skipped to reach one (bodyOffset). */
      skipped?: string;
    }
  /** The first line or item does not fit in `head`: call again with more of the file. */
  | { ok: false; needMore: true }
  | {
      ok: false;
      needMore: false;
      message: string;
      /**
       * A `check` JUnit report: no stream, but it names the recordings it checked
       * (check-report.ts), which the whole file says, not the head sniffed here.
       */
      checkReport?: true;
    };

/** How much of the header prefix a file must show to be taken for a torn recording. */
const TORN_HEADER_MIN = '{"format":"agent-stream'.length;

const SSE_FIELDS: ReadonlySet<string> = new Set(['data', 'event', 'id', 'retry']);
const decoder = createUtf8Decoder();

const isBlankByte = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

const isBomAt = (bytes: Uint8Array, at: number): boolean =>
  bytes[at] === 0xef && bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf;

function skipBom(bytes: Uint8Array): number {
  return isBomAt(bytes, 0) ? 3 : 0;
}

/** The line starting at `from`, without its ending, and where the next line starts (-1 if unterminated). */
function lineAt(bytes: Uint8Array, from: number): { text: string; next: number } {
  let end = from;
  while (end < bytes.length && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
  const text = decoder.decode(bytes.subarray(from, end));
  if (end >= bytes.length) return { text, next: -1 };
  return { text, next: bytes[end] === 0x0d && bytes[end + 1] === 0x0a ? end + 2 : end + 1 };
}

function isSseLine(line: string): boolean {
  if (line.startsWith(':')) return true;
  const colon = line.indexOf(':');
  return SSE_FIELDS.has(colon < 0 ? line : line.slice(0, colon));
}

/** Whether the text from `from` starts, after blank lines, with an SSE field or comment (true for an empty rest). */
function startsLikeSse(bytes: Uint8Array, from: number): boolean {
  let i = from;
  while (i < bytes.length && (bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  if (i >= bytes.length) return true;
  return isSseLine(lineAt(bytes, i).text);
}

/** Whether the text from `from` starts as a line-framed wire a dialect declares (pipeline/leg-framing.ts). */
function startsLikeLines(bytes: Uint8Array, from: number): boolean {
  return lineFramingOf(decoder.decode(bytes.subarray(from, from + 16))) !== undefined;
}

/** `HTTP/1.1 200 OK` + headers + blank line, as `curl -i` prints them. */
function parseHttpHead(bytes: Uint8Array, from: number): { response: RecordedResponse; bodyOffset: number } | null {
  const status = lineAt(bytes, from);
  const match = /^HTTP\/[\d.]+ (\d{3})(?: (.*))?$/.exec(status.text);
  if (!match || status.next < 0) return null;
  const headers: HeaderList = [];
  let at = status.next;
  for (;;) {
    if (at >= bytes.length) return null;
    const line = lineAt(bytes, at);
    if (line.next < 0) return null;
    at = line.next;
    if (line.text === '') break;
    const colon = line.text.indexOf(':');
    if (colon > 0) headers.push([line.text.slice(0, colon).trim(), line.text.slice(colon + 1).trim()]);
  }
  return { response: { status: Number(match[1]), statusText: match[2] ?? '', headers }, bodyOffset: at };
}

/**
 * What a file's first bytes look like, for an error message — never the bytes themselves: an
 * error may travel to a page or a log, and a file's contents are not the message's to show.
 */
export function describeFirstBytes(bytes: Uint8Array, max = 48): string {
  const head = bytes.subarray(0, max);
  const binary =
    head.some((b) => b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x7f) || decoder.decode(head).includes('\ufffd');
  if (head[0] === 0x1f && head[1] === 0x8b)
    return 'gzip-compressed data (decompress it first, e.g. with gunzip, and open the result)';
  if (binary) return 'binary data';
  if (/^\s*<(!doctype|html)/i.test(decoder.decode(head))) return 'an HTML page';
  return 'text that is none of these';
}

function unknown(bytes: Uint8Array, detail?: string): SniffResult {
  return {
    ok: false,
    needMore: false,
    message: `not ${EXPECTED_KINDS}${detail ? ` (${detail})` : ''}: first bytes were ${describeFirstBytes(bytes)}`,
  };
}

const ITEM_SHAPES =
  'an envelope {type, agent, final, delta} or an Anthropic event {type: message_start, content_block_delta, …}';

/**
 * What a file of items is, by the shape of its first object. NDJSON of other objects is a
 * stream's events saved one per line (a provider's chunks, as SDK test suites record them,
 * AG-UI events, JSON-RPC messages…): its dialect is detected from the events, as an SSE
 * capture's, and events no dialect claims are shown as JSON events. A JSON array of other
 * objects is none of these (below: unless a dialect claims its first item, a response body
 * streamed as one array).
 */
const ITEM_KINDS: Readonly<Record<ItemShape, { readonly ndjson: SourceKind; readonly array: SourceKind | null }>> = {
  'anthropic-event': { ndjson: 'anthropic-events', array: 'anthropic-events' },
  envelope: { ndjson: 'ndjson-envelopes', array: 'json-envelopes' },
  'error-frame': { ndjson: 'ndjson-envelopes', array: 'json-envelopes' },
  'other-object': { ndjson: 'ndjson-events', array: null },
};

function sniffJsonArray(bytes: Uint8Array, start: number, complete: boolean): SniffResult {
  // Set from the splitter's callback; an object so the checks below see the assignments.
  const seen: { decided?: SniffResult; firstBad?: string } = {};
  const splitter = createJsonArraySplitter({
    onElement: (element) => {
      if (seen.decided) return;
      const item = convertItem(element.text);
      if (item.ok && item.firstObject) {
        const kind = ITEM_KINDS[itemShape(item.firstObject)].array;
        seen.decided = kind
          ? { ok: true, kind, container: 'json-array', bodyOffset: start }
          : isDialectEvent(element.text)
            ? // A response body streamed as one JSON array: decoded as it was received.
              { ok: true, kind: 'json-stream', bodyOffset: 0 }
            : {
                ok: false,
                needMore: false,
                message: `a JSON array, but its first item is not ${ITEM_SHAPES}: ${preview(element.text)}`,
              };
      } else if (!item.ok) seen.firstBad ??= `${item.reason}: ${preview(element.text)}`;
    },
    onDiagnostic: () => undefined,
  });
  splitter.push(bytes.subarray(start));
  const summary = splitter.end();
  if (seen.decided) return seen.decided;
  if (!complete && !summary.complete) return { ok: false, needMore: true };
  if (seen.firstBad !== undefined)
    return {
      ok: false,
      needMore: false,
      message: `a JSON array, but its items are not ${ITEM_SHAPES}; the first is ${seen.firstBad}`,
    };
  if (!summary.complete) return unknown(bytes, 'a JSON array that is not closed');
  // An empty array (or one of strings only) holds no object to tell envelopes from events.
  return { ok: true, kind: 'json-envelopes', container: 'json-array', bodyOffset: start };
}

/** Whether a wire dialect claims this JSON object as one of its events (a Gemini response chunk). */
function isDialectEvent(text: string): boolean {
  return DIALECT_REGISTRY.detect(sniffFrame({ event: '', data: text })) !== undefined;
}

function preview(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const HAR_START = /^\{\s*"log"\s*:\s*\{/;
/** The Diff view's export names its format first (diff/export.ts). */
const DIFF_EXPORT_START = new RegExp(`^\\{\\s*"format"\\s*:\\s*"${DIFF_EXPORT_FORMAT}"`);

function sniffObject(bytes: Uint8Array, start: number, complete: boolean): SniffResult {
  const line = lineAt(bytes, start);
  const head = decoder.decode(bytes.subarray(start, Math.min(bytes.length, start + 4096)));
  if (HAR_START.test(head)) return { ok: true, kind: 'har', bodyOffset: start };
  if (DIFF_EXPORT_START.test(head))
    return {
      ok: false,
      needMore: false,
      message:
        'a diff exported from the Diff view: it holds the comparison of two sessions, not a stream; open it in the Diff view ("Open exported diff…")',
    };
  // `{` alone on its line: one object pretty-printed (a whole response body, an event saved
  // so), framed as the decoder frames such a body: each top-level object one event, said so.
  const framing = framingOfHead(bytes.subarray(start));
  if (framing === 'json-object') return { ok: true, kind: 'json-stream', bodyOffset: 0 };
  if (framing === undefined && !complete) return { ok: false, needMore: true };
  if (line.next < 0 && !complete) return { ok: false, needMore: true };
  const parsed = parseJson(line.text);
  if (!parsed.ok) return unknown(bytes, complete ? wholeObject(bytes, start) : 'its first line is not a JSON object');
  if (!isJsonObject(parsed.value)) return unknown(bytes);
  // A recording header written by another tool, with spaces or its keys in another order.
  if (parsed.value['format'] === RECORDING_FORMAT) return { ok: true, kind: 'recording', bodyOffset: 0 };
  if ('log' in parsed.value) return { ok: true, kind: 'har', bodyOffset: start };
  // This inspector's envelope export starts with its first leg's head line.
  if (isLegHeadObject(parsed.value))
    return { ok: true, kind: 'ndjson-envelopes', container: 'ndjson', bodyOffset: start };
  return { ok: true, kind: ITEM_KINDS[itemShape(parsed.value)].ndjson, container: 'ndjson', bodyOffset: start };
}

/**
 * Why a whole file that starts with `{` but not with a JSON line (nor with `{` alone on its
 * line, decoded above) is no stream: one JSON object over several lines is a whole response
 * body, said so, and whether it is an error; never its contents (describeFirstBytes).
 */
function wholeObject(bytes: Uint8Array, start: number): string {
  const whole = parseJson(decoder.decode(bytes.subarray(start)));
  if (!whole.ok || !isJsonObject(whole.value)) return 'its first line is not a JSON object';
  const failed = 'error' in whole.value ? ': its `error` member says the request failed' : '';
  return `one JSON object over several lines, a whole response body rather than a stream of events${failed}`;
}

/**
 * `head` is the start of the file; `complete` says whether it is the whole file. When the
 * first line or item is longer than `head`, the answer is `needMore`.
 */
export function sniffSource(head: Uint8Array, complete: boolean): SniffResult {
  if (head.length === 0) return { ok: false, needMore: false, message: 'the file is empty' };
  let start = skipBom(head);
  const text = decoder.decode(head.subarray(start, start + RECORDING_MAGIC.length));
  if (text === RECORDING_MAGIC) return { ok: true, kind: 'recording', bodyOffset: 0 };
  if (text.length > 0 && text.length < RECORDING_MAGIC.length && RECORDING_MAGIC.startsWith(text)) {
    if (!complete) return { ok: false, needMore: true };
    // A recorder killed while writing its header: still a recording (the reader reports the torn line).
    if (text.length >= TORN_HEADER_MIN) return { ok: true, kind: 'recording', bodyOffset: 0 };
  }
  while (start < head.length && isBlankByte(head[start])) start++;
  if (start >= head.length)
    return complete
      ? { ok: false, needMore: false, message: 'the file holds only blank lines' }
      : { ok: false, needMore: true };
  const first = head[start];
  if (first === 0x5b) return sniffJsonArray(head, start, complete);
  if (first === 0x3c) {
    // The report says what it is in its first element: its start is enough.
    const text = decoder.decode(head.subarray(start, start + 4096));
    if (isCheckReport(text)) return { ok: false, needMore: false, message: CHECK_REPORT_WHAT, checkReport: true };
  }
  if (first === 0x7b) return sniffObject(head, start, complete);
  const http = parseHttpHead(head, start);
  if (http) {
    if (announcedLineFraming(http.response.headers) || startsLikeLines(head, http.bodyOffset))
      return { ok: true, kind: 'lines', bodyOffset: http.bodyOffset, response: http.response };
    const contentType = http.response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
    if (contentType.includes('text/event-stream') || startsLikeSse(head, http.bodyOffset))
      return { ok: true, kind: 'sse', bodyOffset: http.bodyOffset, response: http.response };
    // A JSON array streamed element by element (Gemini without alt=sse), as a live connection takes it.
    if (isJsonMediaType(contentType) && framingOfHead(head.subarray(http.bodyOffset)) === 'json-array')
      return { ok: true, kind: 'json-stream', bodyOffset: http.bodyOffset, response: http.response };
    return {
      ok: false,
      needMore: false,
      message: `an HTTP response whose body is not an event stream (status ${http.response.status}, content-type ${contentType || 'none'})`,
    };
  }
  if (/^HTTP\/[\d.]+ \d{3}/.test(lineAt(head, start).text) && !complete) return { ok: false, needMore: true };
  const firstLine = lineAt(head, start);
  if (firstLine.next < 0 && !complete && firstLine.text.length < 16) return { ok: false, needMore: true };
  if (isSseLine(firstLine.text)) return { ok: true, kind: 'sse', bodyOffset: 0 };
  if (startsLikeLines(head, start)) return { ok: true, kind: 'lines', bodyOffset: start };
  return resyncedCapture(head, start, complete) ?? unknown(head);
}

/**
 * A capture that does not start with an event — cut mid-line, a byte-order mark doubled by
 * an editor, a first line that is no field (`Data: x`: field names are case-sensitive) — is
 * still a capture when an event follows: decoded from there, with what was skipped said.
 * Extra BOMs are skipped alone; otherwise decoding starts after the first blank line.
 */
function resyncedCapture(head: Uint8Array, start: number, complete: boolean): SniffResult | null {
  let boms = 0;
  let afterBoms = 0;
  while (isBomAt(head, afterBoms)) {
    boms++;
    afterBoms += 3;
  }
  if (boms > 1 && isSseLine(lineAt(head, afterBoms).text)) {
    return {
      ok: true,
      kind: 'sse',
      bodyOffset: afterBoms,
      skipped: `the capture starts with ${boms} byte-order marks where a stream may have one; bytes 0–${afterBoms} were skipped`,
    };
  }
  if (describeFirstBytes(head) !== 'text that is none of these') return null;
  let at = start;
  for (let lines = 0; lines < 10_000; lines++) {
    const line = lineAt(head, at);
    if (line.next < 0) return complete ? null : { ok: false, needMore: true };
    at = line.next;
    if (line.text !== '') continue;
    while (at < head.length && (head[at] === 0x0a || head[at] === 0x0d)) at++;
    if (at >= head.length || !isSseLine(lineAt(head, at).text)) return null;
    return {
      ok: true,
      kind: 'sse',
      bodyOffset: at,
      skipped: `the capture does not start with an SSE field (it starts in the middle of a line or event, or with a line that is not a field — names are case-sensitive); bytes 0–${at}, up to the first blank line, were skipped`,
    };
  }
  return null;
}
