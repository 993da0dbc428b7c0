import type { Diagnostic, DiagnosticLocation } from '../diagnostics/types';

/**
 * Types of the recording file format (docs/recording-format.md) and of what importers
 * produce. A recording is NDJSON: one header line, then one record per line, appended as
 * the session happens.
 */

export const RECORDING_FORMAT = 'agent-stream-inspector-recording';
export const RECORDING_VERSION = 1;

/** An HTTP header list keeps order and repeated names, as on the wire. */
export type HeaderList = [string, string][];

/** The request that opened a leg. Secrets are redacted before it is written. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: HeaderList;
  /** The request body as text; null when the request had none. */
  body: string | null;
}

export interface RecordedResponse {
  status: number;
  statusText: string;
  headers: HeaderList;
}

/** Results the user sent for an `awaiting_frontend_tools` pause (one POST to /agent/tool_results). */
export interface ToolResultsAction {
  kind: 'tool-results';
  /** When the results were sent (ms, the recorder's clock). */
  at: number;
  /** The leg whose `awaiting_frontend_tools` prompt these results answer. */
  leg: number;
  /** The POSTed JSON body, as sent. */
  body: string;
  /** Where it was POSTed (redacted like request URLs). */
  url?: string;
}

/** A user action during the session. The union grows in later format versions. */
export type RecordedAction = ToolResultsAction;

export const LEG_END_REASONS = ['done', 'error', 'aborted', 'closed'] as const;
export type LegEndReason = (typeof LEG_END_REASONS)[number];

/**
 * How a leg ended: `done` the body ended normally; `error` a network or HTTP failure;
 * `aborted` the user stopped it; `closed` the session or recorder closed while it was open.
 */
export interface LegOutcome {
  reason: LegEndReason;
  message?: string;
}

/** First line of every recording. Unknown extra fields are allowed and ignored. */
export interface RecordingHeader {
  format: typeof RECORDING_FORMAT;
  version: number;
  /** Wall-clock creation time, ISO 8601. */
  createdAt: string;
  /** The recorder's clock at creation (same clock as every record's `t`). */
  t: number;
  /** Whether secrets were redacted when writing. */
  redacted: boolean;
  /** The program that wrote the file. */
  tool?: string;
  /**
   * The dialect the user chose for the session ("Decode as", `--format`): reopened, the
   * session decodes as it again. Absent: the dialect was detected, and is detected again.
   */
  decodeAs?: string;
}

/** `t`: the recorder's clock (ms) when the record was written; only differences matter. */
export interface LegStartRecord {
  type: 'leg';
  leg: number;
  t: number;
  request: RecordedRequest;
}

export interface ResponseRecord extends RecordedResponse {
  type: 'response';
  leg: number;
  t: number;
  /**
   * Whether the inspector decoded the body as a stream (false: an error page or a one-off
   * answer it showed instead). Absent in files written before it: the head decides.
   */
  stream?: boolean;
}

/**
 * One network chunk, bytes exactly as received, base64. `t` is its receive time. `seq` (the
 * chunk's number in its leg, from 0) and `offset` (where its bytes start in the leg's stream)
 * let a reader notice a duplicated or deleted chunk line; files written before they existed
 * lack them.
 */
export interface ChunkRecord {
  type: 'chunk';
  leg: number;
  t: number;
  bytes: string;
  seq?: number;
  offset?: number;
}

export interface ActionRecord {
  type: 'action';
  t: number;
  action: RecordedAction;
}

/**
 * `chunks` and `bytes`: how many chunk records the leg has and how many bytes they hold, so a
 * reader notices chunk lines deleted at the leg's tail (no later chunk shows the gap). Files
 * written before they existed lack them; their legs are read unchecked.
 */
export interface LegEndRecord extends LegOutcome {
  type: 'end';
  leg: number;
  t: number;
  chunks?: number;
  bytes?: number;
}

export type RecordingRecord = LegStartRecord | ResponseRecord | ChunkRecord | ActionRecord | LegEndRecord;

/**
 * A finding about a file being imported. `at.fileOffset` is the byte offset in the file
 * (the leg stream offsets `byteStart`/`byteEnd` are left to the decoder's own findings);
 * `at.line` is the 1-based line for line-oriented files.
 */
export interface ImportDiagnostic extends Diagnostic {
  at: DiagnosticLocation & { fileOffset?: number; line?: number };
}

/**
 * What an imported file was recognised as (by its content, not its name). `lines`: a capture of a
 * line-framed wire (the AI SDK's v4 data stream); `json-stream`: a body streamed as one JSON array.
 */
export type SourceKind =
  | 'recording'
  | 'sse'
  | 'lines'
  | 'json-stream'
  | 'ndjson-envelopes'
  | 'json-envelopes'
  | 'anthropic-events'
  | 'ndjson-events'
  | 'har';
