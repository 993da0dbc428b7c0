import { isJsonObject, parseJson } from '../json/values';
import { encodeBase64 } from './base64';
import {
  LEG_END_REASONS,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type ChunkRecord,
  type HeaderList,
  type LegEndReason,
  type LegOutcome,
  type RecordedAction,
  type RecordedRequest,
  type RecordedResponse,
  type RecordingHeader,
  type RecordingRecord,
} from './types';

/**
 * Writing and validating the lines of a recording (docs/recording-format.md). Each record
 * is one JSON object on one line; JSON.stringify never emits a raw line break, so a line
 * is always exactly one record and a reader can resynchronise at the next LF after damage.
 */

/** The header's `decodeAs` for a session's format choice: only a dialect the user chose ('auto' is none). */
export const decodeAsOf = (choice: string | undefined): { decodeAs?: string } =>
  choice !== undefined && choice !== 'auto' ? { decodeAs: choice } : {};

export function headerLine(init: {
  createdAt: string;
  t: number;
  redacted: boolean;
  tool?: string;
  decodeAs?: string;
}): string {
  const header: RecordingHeader = {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    createdAt: init.createdAt,
    t: init.t,
    redacted: init.redacted,
  };
  if (init.tool !== undefined) header.tool = init.tool;
  if (init.decodeAs !== undefined) header.decodeAs = init.decodeAs;
  return `${JSON.stringify(header)}\n`;
}

export function recordLine(record: RecordingRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** `seq`: the chunk's number in its leg (from 0); `offset`: where its bytes start in the leg's stream. */
export function chunkRecord(leg: number, t: number, bytes: Uint8Array, seq: number, offset: number): ChunkRecord {
  return { type: 'chunk', leg, seq, offset, t, bytes: encodeBase64(bytes) };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(reason: string): Parsed<T> => ({ ok: false, reason });

type Json = Record<string, unknown>;

function parseObject(text: string): Parsed<Json> {
  const parsed = parseJson(text);
  if (!parsed.ok) return fail(`not JSON (${parsed.error})`);
  return isJsonObject(parsed.value) ? ok(parsed.value) : fail('not a JSON object');
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function isHeaderList(v: unknown): v is HeaderList {
  return (
    Array.isArray(v) &&
    v.every((h) => Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string')
  );
}

export function isRecordedRequest(v: unknown): v is RecordedRequest {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Json;
  return (
    typeof r['method'] === 'string' &&
    typeof r['url'] === 'string' &&
    isHeaderList(r['headers']) &&
    (r['body'] === null || typeof r['body'] === 'string')
  );
}

/** A response head as a recording writes it: status, statusText and headers (other fields allowed). */
export function isRecordedResponse(v: unknown): v is RecordedResponse {
  if (!isJsonObject(v)) return false;
  return isInt(v['status']) && typeof v['statusText'] === 'string' && isHeaderList(v['headers']);
}

/** How a leg ended, as a recording's end record or an export says it; undefined when `v` says no valid reason. */
export function readLegOutcome(v: unknown): LegOutcome | undefined {
  if (!isJsonObject(v)) return undefined;
  const reason = LEG_END_REASONS.find((r) => r === v['reason']);
  if (reason === undefined) return undefined;
  const message = v['message'];
  return typeof message === 'string' ? { reason, message } : { reason };
}

function isAction(v: unknown): v is RecordedAction {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Json;
  return (
    a['kind'] === 'tool-results' &&
    isTime(a['at']) &&
    isInt(a['leg']) &&
    typeof a['body'] === 'string' &&
    (a['url'] === undefined || typeof a['url'] === 'string')
  );
}

const END_REASONS: ReadonlySet<string> = new Set<LegEndReason>(LEG_END_REASONS);
/** A character outside base64's alphabet and padding (a negated class: the fastest check V8 runs). */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/** Padded base64: whole quads of the alphabet, `=` only as the last one or two characters. */
export function isPaddedBase64(text: string): boolean {
  if (text.length % 4 !== 0 || NOT_BASE64.test(text)) return false;
  const pad = text.indexOf('=');
  return pad < 0 || pad === text.length - 1 || (pad === text.length - 2 && text.charCodeAt(text.length - 1) === 0x3d);
}
const RECORD_TYPES: ReadonlySet<string> = new Set<RecordingRecord['type']>([
  'leg',
  'response',
  'chunk',
  'action',
  'end',
]);

/** The header line; a reason when the line is not one. */
export function parseHeader(text: string): Parsed<RecordingHeader> {
  const parsed = parseObject(text);
  if (!parsed.ok) return parsed;
  const h = parsed.value;
  if (h['format'] !== RECORDING_FORMAT) return fail(`"format" is not "${RECORDING_FORMAT}"`);
  if (!isInt(h['version']) || h['version'] < 1) return fail('"version" is not a positive integer');
  return ok({
    format: RECORDING_FORMAT,
    version: h['version'],
    createdAt: typeof h['createdAt'] === 'string' ? h['createdAt'] : '',
    t: isTime(h['t']) ? h['t'] : 0,
    redacted: h['redacted'] !== false,
    ...(typeof h['tool'] === 'string' ? { tool: h['tool'] } : {}),
    ...(typeof h['decodeAs'] === 'string' ? { decodeAs: h['decodeAs'] } : {}),
  });
}

/** What one record line holds: a record, a record type this version does not know, or damage. */
export type ParsedRecord =
  { kind: 'record'; record: RecordingRecord } | { kind: 'unknown'; type: string } | { kind: 'invalid'; reason: string };

/**
 * Validates one record line. Unknown record types are reported as such (a newer writer may
 * add them); a known type with a missing or mistyped field is damage.
 */
export function parseRecord(text: string): ParsedRecord {
  const parsed = parseObject(text);
  if (!parsed.ok) return { kind: 'invalid', reason: parsed.reason };
  const r = parsed.value;
  const type = r['type'];
  if (typeof type !== 'string') return { kind: 'invalid', reason: 'no "type" field' };
  const invalid = (what: string): ParsedRecord => ({ kind: 'invalid', reason: `${type} record ${what}` });
  if (!RECORD_TYPES.has(type)) return { kind: 'unknown', type };
  if (!isTime(r['t'])) return invalid('has no numeric "t"');
  const t = r['t'];
  switch (type) {
    case 'chunk': {
      const bytes = r['bytes'];
      if (!isInt(r['leg'])) return invalid('has no leg number');
      if (typeof bytes !== 'string' || !isPaddedBase64(bytes)) return invalid('has no valid base64 "bytes"');
      const seq = r['seq'];
      const offset = r['offset'];
      if ((seq !== undefined && !isInt(seq)) || (offset !== undefined && !isInt(offset)))
        return invalid('has a "seq" or "offset" that is not a whole number');
      return {
        kind: 'record',
        record: {
          type,
          leg: r['leg'],
          t,
          bytes,
          ...(seq !== undefined ? { seq } : {}),
          ...(offset !== undefined ? { offset } : {}),
        },
      };
    }
    case 'leg':
      if (!isInt(r['leg'])) return invalid('has no leg number');
      if (!isRecordedRequest(r['request'])) return invalid('has no valid "request" {method, url, headers, body}');
      return { kind: 'record', record: { type, leg: r['leg'], t, request: r['request'] } };
    case 'response':
      if (!isInt(r['leg'])) return invalid('has no leg number');
      if (!isRecordedResponse(r)) return invalid('needs status, statusText and headers');
      if (r['stream'] !== undefined && typeof r['stream'] !== 'boolean')
        return invalid('has a "stream" that is neither true nor false');
      return {
        kind: 'record',
        record: {
          type,
          leg: r['leg'],
          t,
          status: r['status'],
          statusText: r['statusText'],
          headers: r['headers'],
          ...(typeof r['stream'] === 'boolean' ? { stream: r['stream'] } : {}),
        },
      };
    case 'action':
      if (!isAction(r['action'])) {
        const kind =
          typeof r['action'] === 'object' && r['action'] !== null ? (r['action'] as Json)['kind'] : undefined;
        return typeof kind === 'string' && kind !== 'tool-results'
          ? { kind: 'unknown', type: `action ${kind}` }
          : invalid('has no valid "action"');
      }
      return { kind: 'record', record: { type, t, action: r['action'] } };
    case 'end': {
      const reason = r['reason'];
      if (!isInt(r['leg'])) return invalid('has no leg number');
      if (typeof reason !== 'string' || !END_REASONS.has(reason))
        return invalid('has no valid "reason" (done, error, aborted, closed)');
      const message = r['message'];
      const counts = isInt(r['chunks']) && isInt(r['bytes']) ? { chunks: r['chunks'], bytes: r['bytes'] } : {};
      return {
        kind: 'record',
        record: {
          type,
          leg: r['leg'],
          t,
          reason: reason as LegEndReason,
          ...(typeof message === 'string' ? { message } : {}),
          ...counts,
        },
      };
    }
    default:
      return { kind: 'unknown', type };
  }
}

/** Decoded byte length of a valid padded base64 string, without decoding it. */
export function base64ByteLength(text: string): number {
  if (text.length === 0) return 0;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** The bytes a recording starts with; enough to recognise one from its first line. */
export const RECORDING_MAGIC = `{"format":"${RECORDING_FORMAT}"`;
