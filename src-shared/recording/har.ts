import { isJsonObject } from '../json/values';
import { announcesStream } from '../pipeline/leg-framing';
import { encodeUtf8 } from '../text/utf8';
import { decodeBase64 } from './base64';
import { readLegOutcome } from './format';
import { type HeaderList, type LegOutcome, type RecordedRequest, type RecordedResponse } from './types';

/**
 * HAR 1.2 entries (http://www.softwareishard.com/blog/har-12-spec/) as sources: a listing
 * to choose from, and the chosen entry's request, response and body bytes. Browsers save
 * an event stream's body as `response.content.text`, plain or base64.
 */

export interface HarEntrySummary {
  /** Position in `log.entries`, the number to choose the entry by. */
  index: number;
  method: string;
  url: string;
  status: number;
  mimeType: string;
  /** Body size in bytes as the HAR reports it (-1 unknown). */
  size: number;
  /**
   * Whether the entry's headers announce a stream (`text/event-stream`, NDJSON, a line-framed
   * dialect's header). A JSON array streamed element by element (Gemini without `alt=sse`) is
   * not counted: a HAR is full of JSON arrays that are one-off answers. Chosen, it decodes as
   * a stream all the same (`isStreamResponse`).
   */
  isStream: boolean;
  hasBody: boolean;
  startedDateTime: string;
  /** How the leg ended, in an entry this inspector wrote (HAR_LEG_END); absent in any other HAR. */
  legEnd?: LegOutcome;
  /**
   * Whether the body was decoded as a stream, in an entry this inspector wrote (HAR_STREAM):
   * what the session decided, which a head cannot always say (a file's stream has none).
   */
  decoded?: boolean;
  /** The dialect the user chose for the session, in an entry this inspector wrote (HAR_DECODE_AS). */
  decodeAs?: string;
}

/**
 * The custom field (HAR allows those starting with `_`) in which this inspector's HAR export
 * says how each leg ended. A HAR whose every entry has it is a session's legs, in order.
 */
export const HAR_LEG_END = '_legEnd';

/** The custom field in which this inspector's HAR export says whether a leg's body was decoded as a stream. */
export const HAR_STREAM = '_stream';

/** The custom field in which this inspector's HAR export names the dialect the user chose (a recording's `decodeAs`). */
export const HAR_DECODE_AS = '_decodeAs';

export interface HarLeg {
  request: RecordedRequest;
  response: RecordedResponse;
  body: Uint8Array;
  /** The time the first response byte arrived (ms since the epoch), as far as the HAR tells. */
  receivedAt: number;
}

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json => (isJsonObject(value) ? value : {});
const asString = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const asNumber = (value: unknown, fallback = -1): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

function headerList(value: unknown): HeaderList {
  if (!Array.isArray(value)) return [];
  return value.map((h) => [asString(asObject(h)['name']), asString(asObject(h)['value'])]);
}

function contentType(response: Json): string {
  const content = asObject(response['content']);
  const mime = asString(content['mimeType']);
  if (mime) return mime;
  return headerList(response['headers']).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
}

export function summarizeHarEntry(entry: unknown, index: number): HarEntrySummary {
  const e = asObject(entry);
  const request = asObject(e['request']);
  const response = asObject(e['response']);
  const content = asObject(response['content']);
  const mimeType = contentType(response);
  const summary: HarEntrySummary = {
    index,
    method: asString(request['method'], 'GET'),
    url: asString(request['url']),
    status: asNumber(response['status'], 0),
    mimeType,
    size: asNumber(content['size']),
    isStream: announcesStream([['content-type', mimeType], ...headerList(response['headers'])]),
    hasBody: typeof content['text'] === 'string' && content['text'].length > 0,
    startedDateTime: asString(e['startedDateTime']),
  };
  const legEnd = readLegOutcome(e[HAR_LEG_END]);
  if (legEnd) summary.legEnd = legEnd;
  const decoded = e[HAR_STREAM];
  if (typeof decoded === 'boolean') summary.decoded = summary.isStream = decoded;
  const decodeAs = e[HAR_DECODE_AS];
  if (typeof decodeAs === 'string') summary.decodeAs = decodeAs;
  return summary;
}

export function describeHarEntry(summary: HarEntrySummary): string {
  const size = summary.size >= 0 ? `, ${summary.size} bytes` : '';
  return `#${summary.index} ${summary.method} ${summary.url} → ${summary.status} ${summary.mimeType || 'no content type'}${size}${summary.hasBody ? '' : ', no body saved'}`;
}

/** Time to first byte: the HAR timings before `receive` (negative values mean "not applicable"). */
function firstByteDelay(timings: Json): number {
  let total = 0;
  for (const phase of ['blocked', 'dns', 'connect', 'send', 'wait']) {
    const value = asNumber(timings[phase], -1);
    if (value > 0) total += value;
  }
  return total;
}

/** The entry as a leg; an error message when its body cannot be read. */
export function harEntryToLeg(entry: unknown): HarLeg | string {
  const e = asObject(entry);
  const request = asObject(e['request']);
  const response = asObject(e['response']);
  const content = asObject(response['content']);
  const postData = asObject(request['postData']);
  const text = content['text'];
  let body: Uint8Array;
  if (typeof text !== 'string') body = new Uint8Array(0);
  else if (content['encoding'] === 'base64') {
    const clean = text.replace(/\s+/g, '');
    // Some writers drop the padding; the length says how much there was.
    const decoded = decodeBase64(clean + '='.repeat((4 - (clean.length % 4)) % 4));
    if (!decoded) return 'its response.content.text is marked base64 but is not valid base64';
    body = decoded;
  } else body = encodeUtf8(text);
  const started = Date.parse(asString(e['startedDateTime']));
  return {
    request: {
      method: asString(request['method'], 'GET'),
      url: asString(request['url']),
      headers: headerList(request['headers']),
      body: typeof postData['text'] === 'string' ? postData['text'] : null,
    },
    response: {
      status: asNumber(response['status'], 0),
      statusText: asString(response['statusText']),
      headers: headerList(response['headers']),
    },
    body,
    receivedAt: Number.isFinite(started) ? started + firstByteDelay(asObject(e['timings'])) : 0,
  };
}
