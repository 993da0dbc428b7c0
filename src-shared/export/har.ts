import { bytesAsText } from '../recording/base64';
import { HAR_DECODE_AS, HAR_LEG_END, HAR_STREAM } from '../recording/har';
import type { HeaderList, LegOutcome, RecordedRequest, RecordedResponse } from '../recording/types';

/**
 * A session as a HAR 1.2 log (http://www.softwareishard.com/blog/har-12-spec/): one entry per
 * leg, its request (as recorded: redacted), response and whole body, so DevTools, HTTP
 * Toolkit or this inspector can open it. A body that is valid UTF-8 is kept as text, any
 * other as base64 (HAR's `encoding`), so the bytes survive either way. Timings say when the
 * first and the last body byte arrived. Each entry says how its leg ended in a custom field
 * (HAR allows fields starting with `_`), which also tells this inspector that the entries are
 * the legs of one session, and in another whether its body was decoded as a stream.
 */

export interface HarExportLeg {
  request: RecordedRequest;
  /** null: no response arrived (the connection failed). */
  response: RecordedResponse | null;
  /** When the request was sent (ms since the epoch). */
  startedAt: number;
  /** When the first and the last body byte arrived (ms since the epoch); absent without a body. */
  firstByteAt?: number;
  lastByteAt?: number;
  body: Uint8Array;
  /** How the leg ended, in the recording format's words. */
  end: LegOutcome;
  /** Whether the session decoded the body as a stream (a file's stream has no head to say so). */
  stream: boolean;
  /** The dialect the user chose for the session; absent: detected. */
  decodeAs?: string;
}

export interface HarExportInput {
  creator: { name: string; version: string };
  legs: readonly HarExportLeg[];
}

const harHeaders = (headers: HeaderList): { name: string; value: string }[] =>
  headers.map(([name, value]) => ({ name, value }));

const headerValue = (headers: HeaderList, name: string): string | undefined =>
  headers.find(([key]) => key.toLowerCase() === name)?.[1];

function isoTime(ms: number): string {
  const date = new Date(Number.isFinite(ms) ? ms : 0);
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
}

function queryString(url: string): { name: string; value: string }[] {
  const query = url.indexOf('?');
  if (query < 0) return [];
  const out: { name: string; value: string }[] = [];
  for (const pair of url
    .slice(query + 1)
    .split('#')[0]!
    .split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    out.push({
      name: safeDecode(eq < 0 ? pair : pair.slice(0, eq)),
      value: eq < 0 ? '' : safeDecode(pair.slice(eq + 1)),
    });
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

function bodyContent(
  body: Uint8Array,
  mimeType: string,
): { size: number; mimeType: string; text: string; encoding?: 'base64' } {
  const { text, base64 } = bytesAsText(body);
  return { size: body.byteLength, mimeType, text, ...(base64 ? { encoding: 'base64' as const } : {}) };
}

function entry(leg: HarExportLeg): Record<string, unknown> {
  const { request, response } = leg;
  const wait = leg.firstByteAt !== undefined ? Math.max(0, leg.firstByteAt - leg.startedAt) : 0;
  const receive =
    leg.firstByteAt !== undefined && leg.lastByteAt !== undefined ? Math.max(0, leg.lastByteAt - leg.firstByteAt) : 0;
  const requestType = headerValue(request.headers, 'content-type') ?? 'application/json';
  const responseType = response ? (headerValue(response.headers, 'content-type') ?? '') : '';
  return {
    startedDateTime: isoTime(leg.startedAt),
    time: wait + receive,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(request.headers),
      queryString: queryString(request.url),
      ...(request.body !== null ? { postData: { mimeType: requestType, text: request.body } } : {}),
      headersSize: -1,
      bodySize: request.body !== null ? request.body.length : 0,
    },
    response: {
      status: response?.status ?? 0,
      statusText: response?.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(response?.headers ?? []),
      content: bodyContent(leg.body, responseType),
      redirectURL: (response && headerValue(response.headers, 'location')) ?? '',
      headersSize: -1,
      bodySize: leg.body.byteLength,
    },
    cache: {},
    timings: { send: 0, wait, receive },
    [HAR_LEG_END]: leg.end,
    [HAR_STREAM]: leg.stream,
    ...(leg.decodeAs !== undefined ? { [HAR_DECODE_AS]: leg.decodeAs } : {}),
  };
}

export function buildHar({ creator, legs }: HarExportInput): string {
  return `${JSON.stringify({ log: { version: '1.2', creator, entries: legs.map(entry) } }, null, 2)}\n`;
}
