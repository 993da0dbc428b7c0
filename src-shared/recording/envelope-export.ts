import { isJsonObject } from '../json/values';
import { encodeUtf8 } from '../text/utf8';
import { bytesAsText, decodeBase64 } from './base64';
import { isRecordedRequest, isRecordedResponse, readLegOutcome } from './format';
import type { LegOutcome, RecordedRequest, RecordedResponse } from './types';

/**
 * This inspector's envelope export ("Envelopes (NDJSON)"): one envelope per line as it was
 * decoded — `seq`, `leg`, `frame`, `agent`, `type`, `final`, `delta`, `extras`, `dialect`, its
 * byte range and receive time, and `control` for the envelopes that mark a terminator, an
 * error frame, an XML open tag, a provider event or an undecodable event.
 *
 * The first line of each event also carries the event's bytes as received (`wire`, with
 * `wireEncoding: "base64"` when they are not UTF-8), the bytes between events with them, and
 * the leg's last line the bytes after its last event (a cut event's start). Read back, a leg
 * is those bytes again, so it decodes as the stream it came from: the same dialect, end,
 * blocks and findings, whatever the format. The envelopes alone could not say that much: a
 * provider stream's end is in events that are no envelope of the agent's vocabulary (the
 * export of a finished Anthropic stream reopened "truncated"), and its synthesised message
 * envelopes follow its `[DONE]`.
 *
 * Each leg starts with its head line (`exportedLeg`): the request that opened it and the
 * response head (secrets redacted, as in a recording), when it started, whether its body was
 * decoded as a stream, how it ended, and the dialect the user chose for the session
 * (`decodeAs`); a leg no envelope line carries bytes for (an error page shown, not decoded; a
 * stream cut before its first event) has them on its head line.
 * Read back, the legs are the session's again: the same requests, responses, failures and
 * ends. An export written before heads has legs with envelopes only, ended by their bytes.
 *
 * An export written before `wire` (or edited to drop it) is read from its envelopes: each
 * line is what the wire carried for it, in its leg, as far as the envelope can say (the
 * terminator as `[DONE]`, an undecodable event as its data, an envelope with its extras as
 * fields); the markers only other formats have (an XML open tag, a provider event) are left out.
 */

/** The fields that carry an event's bytes on its exported line. */
export interface ExportedWire {
  wire: string;
  wireEncoding?: 'base64';
}

/** The `wire` fields for these bytes: UTF-8 text when they are, else base64. */
export function wireFields(bytes: Uint8Array): ExportedWire {
  const { text, base64 } = bytesAsText(bytes);
  return base64 ? { wire: text, wireEncoding: 'base64' } : { wire: text };
}

/**
 * An exported line: its leg, and the SSE data to send for it when it carries no wire bytes
 * (null: a marker of another wire format, left out, or a line that carries `wire`).
 */
export interface ExportedEnvelope {
  leg: number;
  data: string | null;
  /** When the event was received (ms; 0 when the export's source had no timing). */
  receivedAt: number;
  /**
   * The bytes the line carries (`wire`): absent when it carries none, `malformed` when its
   * `wire` fields are there but are no string, or not base64 where they say so.
   */
  wire?: Uint8Array | 'malformed';
}

function readWire(value: Record<string, unknown>): Uint8Array | 'malformed' | undefined {
  const { wire, wireEncoding } = value;
  if (wire === undefined && wireEncoding === undefined) return undefined;
  if (typeof wire !== 'string') return 'malformed';
  if (wireEncoding === undefined) return encodeUtf8(wire);
  return (wireEncoding === 'base64' && decodeBase64(wire)) || 'malformed';
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** The line's leg and wire data when it is an exported envelope; null for any other object. */
export function readExportedEnvelope(value: Record<string, unknown>): ExportedEnvelope | null {
  const { leg, type, agent, final, delta, extras, control } = value;
  if (
    !isCount(value['seq']) ||
    !isCount(leg) ||
    typeof value['dialect'] !== 'string' ||
    typeof value['byteStart'] !== 'number' ||
    typeof type !== 'string' ||
    typeof agent !== 'string' ||
    typeof final !== 'boolean' ||
    typeof delta !== 'string' ||
    !isJsonObject(extras)
  )
    return null;
  const receivedAt = typeof value['receivedAt'] === 'number' ? value['receivedAt'] : 0;
  const wire = readWire(value);
  if (wire !== undefined) return { leg, data: null, receivedAt, wire };
  return { leg, data: wireData(type, agent, final, delta, extras, control), receivedAt };
}

/** What the wire carried for an envelope, as far as the envelope says (an export without `wire`). */
function wireData(
  type: string,
  agent: string,
  final: boolean,
  delta: string,
  extras: Record<string, unknown>,
  control: unknown,
): string | null {
  switch (control) {
    case 'done':
      return '[DONE]';
    case 'undecoded':
      // Its delta is the event's data, verbatim.
      return delta;
    case 'error-frame': {
      const { error, traceback, ...rest } = extras;
      return JSON.stringify({ error, message: delta, ...(traceback !== undefined ? { traceback } : {}), ...rest });
    }
    case 'block-open':
    case 'provider-event':
      return null;
    default:
      // The upstream agent's field order: type, agent, final, delta, then the extras.
      return JSON.stringify({ type, agent, final, delta, ...extras });
  }
}

/** The key that makes a line a leg's head line (its value: the leg's number). */
const LEG_HEAD_KEY = 'exportedLeg';

/** A leg's head line: what the session knew of the leg besides its envelopes. */
export interface ExportedLegHead {
  leg: number;
  /** When the leg's request was sent (ms, the clock of the envelopes' `receivedAt`). */
  startedAt: number;
  /** Null for a leg read from a file, which had no request. */
  request: RecordedRequest | null;
  response: RecordedResponse | null;
  /** Whether the body was decoded as a stream (false: a response shown, not decoded). */
  stream: boolean;
  end: LegOutcome;
  /** The dialect the user chose for the session (a recording header's `decodeAs`); absent: detected. */
  decodeAs?: string;
}

/** The head line of a leg, with the leg's bytes when no envelope line carries them. */
export function legHeadLine(head: ExportedLegHead, body?: { bytes: Uint8Array; receivedAt: number }): string {
  const { leg, ...fields } = head;
  return `${JSON.stringify({ [LEG_HEAD_KEY]: leg, ...fields, ...(body ? { receivedAt: body.receivedAt, ...wireFields(body.bytes) } : {}) })}\n`;
}

/** Whether an object is meant as a leg's head line (whether or not it is a valid one). */
export const isLegHeadObject = (value: Record<string, unknown>): boolean => LEG_HEAD_KEY in value;

/** A head line read back: the head, and the bytes it carries (as an exported envelope's `wire`) with their time. */
export interface ReadLegHead extends ExportedLegHead {
  receivedAt: number;
  wire?: Uint8Array | 'malformed';
}

/** A head line read back; a string says what makes it no valid head. */
export function readLegHead(value: Record<string, unknown>): ReadLegHead | string {
  const { request, response, stream, startedAt, receivedAt, decodeAs } = value;
  const leg = value[LEG_HEAD_KEY];
  const end = readLegOutcome(value['end']);
  if (!isCount(leg)) return `its "${LEG_HEAD_KEY}" is no leg number`;
  if (request !== null && !isRecordedRequest(request)) return 'its "request" is no {method, url, headers, body}';
  if (response !== null && !isRecordedResponse(response)) return 'its "response" is no {status, statusText, headers}';
  if (typeof stream !== 'boolean') return 'its "stream" is neither true nor false';
  if (typeof startedAt !== 'number') return 'its "startedAt" is no time';
  if (!end) return 'its "end" has no valid "reason" (done, error, aborted, closed)';
  const wire = readWire(value);
  return {
    leg,
    startedAt,
    request,
    response,
    stream,
    end,
    ...(typeof decodeAs === 'string' ? { decodeAs } : {}),
    receivedAt: typeof receivedAt === 'number' ? receivedAt : startedAt,
    ...(wire !== undefined ? { wire } : {}),
  };
}
