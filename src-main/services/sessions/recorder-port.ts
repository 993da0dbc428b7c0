import type { LegEndInfo } from '../../../src-shared/contract/payloads';
import type {
  LegOutcome,
  RecordedAction,
  RecordedRequest,
  RecordedResponse,
} from '../../../src-shared/recording/types';

/**
 * What the session service needs from the recorder (src-main/services/recording/recorder.ts),
 * injected so that sessions run without a disk in tests and the recorder stays its own module.
 */
export interface RecorderPort {
  /** Opens the next leg; returns its number in the recording. */
  startLeg(request: RecordedRequest): number;
  response(leg: number, response: RecordedResponse, stream: boolean): void;
  chunk(leg: number, bytes: Uint8Array, receivedAt: number): void;
  action(action: RecordedAction): void;
  endLeg(leg: number, outcome: LegOutcome): void;
  close(): unknown;
  /** Bytes taken but not yet in the file; with `flush`, what lets a source wait for a slow disk. */
  readonly backlog?: number;
  /** Resolves when what was taken is in the file. */
  flush?(): Promise<void>;
}

/**
 * How many bytes of records may wait for the disk before the stream is paused. A loaded
 * disk writes slower than loopback delivers; without a bound the records queue in memory.
 */
export const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

export interface RecorderFactoryOptions {
  flushIntervalMs: number;
  redact: boolean;
  /** A write failed: the recording stopped (the session goes on). */
  onError?: (error: Error) => void;
  /** The dialect the user chose for the session, for the header (absent: detected). */
  decodeAs?: string;
}

export type RecorderFactory = (path: string, options: RecorderFactoryOptions) => RecorderPort | Promise<RecorderPort>;

/** How often a live recording is flushed: a crash loses at most this much. */
export const RECORDING_FLUSH_MS = 200;

/**
 * The two vocabularies of a leg's end, each way: the recording's `aborted` is the user's stop,
 * its `closed` a leg cut by its session or recorder closing (the session's `aborted`: cut, not
 * stopped by anyone), so that a session saved and reopened ends as it did.
 */
const RECORDED: Readonly<Record<LegEndInfo['reason'], LegOutcome['reason']>> = {
  complete: 'done',
  stopped: 'aborted',
  failed: 'error',
  aborted: 'closed',
};
const FROM_RECORDING: Readonly<Record<LegOutcome['reason'], LegEndInfo['reason']>> = {
  done: 'complete',
  aborted: 'stopped',
  error: 'failed',
  closed: 'aborted',
};

/** A leg's end in the recording's vocabulary. */
export function recordedOutcome(end: LegEndInfo): LegOutcome {
  const reason = RECORDED[end.reason];
  return end.message === undefined ? { reason } : { reason, message: end.message };
}

/** A recorded leg end in the session's vocabulary (absent: the recording stopped inside the leg). */
export function legEndFromRecording(outcome: LegOutcome | undefined): LegEndInfo {
  if (!outcome)
    return { reason: 'aborted', message: 'The recording ends inside this leg (the recorder was stopped or crashed).' };
  const reason = FROM_RECORDING[outcome.reason];
  return outcome.message === undefined ? { reason } : { reason, message: outcome.message };
}
