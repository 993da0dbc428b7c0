import { checkReportMessage, type ReportedRecording } from '../../../src-shared/recording/check-report';
import type { HarEntrySummary } from '../../../src-shared/recording/har';
import { isStreamResponse } from '../../../src-shared/pipeline/leg-framing';
import type {
  ImportDiagnostic,
  LegOutcome,
  RecordedAction,
  RecordedRequest,
  RecordedResponse,
  RecordingHeader,
  RecordingRecord,
  SourceKind,
} from '../../../src-shared/recording/types';
import type { SourceFs } from './source-file';

export type { SourceKind };

/** Where a record's line is in its file: [start, end), `end` just after its LF. */
export interface FileSpan {
  start: number;
  end: number;
}

export interface ImportedChunk {
  bytes: Uint8Array;
  /** Receive time in ms (the recorder's clock for recordings; 0 when the file has no timing). */
  receivedAt: number;
  /** Recordings: the chunk record these bytes were read from, to read them again by offset. */
  record?: FileSpan;
}

/** A record of a recording as it is read, with where its line is; only records the index keeps. */
export type RecordListener = (record: RecordingRecord, line: FileSpan) => void;

/**
 * One leg: the first request, then each tool_results continuation. `chunks` streams the
 * leg's bytes from the file; it can be iterated again (each `for await` re-reads the file),
 * which is what replay and seeking backwards rely on.
 */
/**
 * Whether an imported leg's body is decoded: what its file says (a recording), else its
 * response head (`isStreamResponse`). Here, beside the leg, so that the CLI decides as the app
 * does without loading the session service or the HTTP client.
 */
export const legIsStream = (leg: Pick<ImportedLeg, 'stream' | 'response'>): boolean =>
  leg.stream ?? isStreamResponse(leg.response);

/**
 * What to decode a source as: the format the user asks for now (`auto`: detected, whatever the
 * file says), else the dialect the file says was chosen when `known` has it, else detected
 * ('auto'). The app and the CLI decide alike.
 */
export function chosenFormat<F extends string>(
  asked: F | 'auto' | undefined,
  source: Pick<ImportedSource, 'decodeAs'> | null,
  known: (id: string) => id is F,
): F | 'auto' {
  if (asked !== undefined) return asked;
  const said = source?.decodeAs;
  return said !== undefined && known(said) ? said : 'auto';
}

export interface ImportedLeg {
  index: number;
  request?: RecordedRequest;
  response?: RecordedResponse;
  /**
   * Whether the body is a stream to decode, where the file says: a recording this inspector
   * wrote (what the live connection decided), a HAR entry or a capture whose JSON body starts
   * as an array. Absent: its response head decides (`isStreamResponse`).
   */
  stream?: boolean;
  /** When the leg's request was sent (recordings only). */
  startedAt?: number;
  /** How the leg ended (recordings, absent when the recording stopped mid-leg; HAR files this inspector exported). */
  outcome?: LegOutcome;
  /** Chunk count and byte count when known before reading (recordings, HAR). */
  chunkCount?: number;
  byteCount?: number;
  chunks: AsyncIterable<ImportedChunk>;
}

/**
 * An opened file. `legs` is an array known when `openSource` resolves (a recording is
 * indexed in one pass that keeps no chunk bytes, unless opened to be streamed: see
 * `readRecords`); each leg's chunks are streamed on demand.
 *
 * `diagnostics`: for recordings (unless opened to be streamed) and HAR files it is complete
 * when `openSource` resolves;
 * for SSE captures and envelope/event files it grows while the chunks are read (each
 * finding once, however often the chunks are iterated), complete after a full read.
 */
export interface ImportedSource {
  kind: SourceKind;
  path: string;
  /** File size in bytes. */
  size: number;
  legs: ImportedLeg[];
  actions: RecordedAction[];
  /** What the user should know about how the file was read (no timing, synthetic chunks…). */
  notes: string[];
  diagnostics: ImportDiagnostic[];
  /** Recordings: the header line (null if it was damaged). */
  header?: RecordingHeader | null;
  /**
   * The dialect the user chose for the session the file was written from (a recording's
   * header, an envelope export's head lines), as the file says it: decoded as it unless the
   * reader is told another (`chosenFormat`).
   */
  decodeAs?: string;
  /** HAR files: every entry, for choosing another one. */
  harEntries?: HarEntrySummary[];
  /**
   * Recordings opened with `stream: true`: `legs` and `actions` are empty until this has run,
   * and `diagnostics` grows while it runs. It reads the file once, in order, hands every record
   * to `onRecord` as soon as it is read (so a caller can decode the first leg while the rest is
   * still on disk), and fills `legs` and `actions` when the file is through. `stopped` is asked
   * between blocks: once it says yes, reading ends there (and `legs` stays empty). Rejects when
   * the file cannot be read.
   */
  readRecords?: (onRecord: RecordListener, stopped?: () => boolean) => Promise<void>;
}

export interface OpenSourceOptions {
  /** HAR: the entry (index in log.entries) to open, or several, in order, as the legs of one session. */
  harEntry?: number | readonly number[];
  fs?: SourceFs;
  /** Called for every finding as it is made (the same objects end up in `diagnostics`). */
  onDiagnostic?: (diagnostic: ImportDiagnostic) => void;
  /** A recording resolves before it is read, with `readRecords` to read it (see ImportedSource). */
  stream?: boolean;
  /**
   * Only a check report is wanted (reading its failures again): the file is recognised and
   * nothing more; a report rejects with its CheckReportError as always, anything else with an
   * ImportError saying it is no such report.
   */
  checkReportOnly?: boolean;
}

export type ImportErrorCode =
  | 'unreadable'
  | 'unrecognised'
  | 'unsupported-version'
  | 'choose-har-entry'
  | 'bad-har-entry'
  /** A `check` JUnit report: it is no stream, but names the recordings to open instead (check-report-targets.ts). */
  | 'check-report';

/** A file that cannot be opened as a source; the message says what was expected. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  constructor(
    readonly code: ImportErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** A HAR file with several streams and no choice made: the entries to choose from. */
export class HarEntryChoiceError extends ImportError {
  constructor(
    path: string,
    message: string,
    readonly entries: HarEntrySummary[],
  ) {
    super('choose-har-entry', path, message);
  }
}

/**
 * A `check` JUnit report (code `check-report`): no stream, but the recordings it checked, read
 * from the whole report, which opening it by path opens instead (check-report-targets.ts).
 */
export class CheckReportError extends ImportError {
  constructor(
    path: string,
    readonly recordings: readonly ReportedRecording[],
  ) {
    super('check-report', path, `${path}: ${checkReportMessage(recordings)}`);
  }
}
