import type { Failure, LegEndInfo } from '../../../src-shared/contract/payloads';
import type { InlineOptions } from '../../../src-shared/inline/types';
import { endStatusOf, type EndFacts, type EndStatus, type StopCause } from '../../../src-shared/pipeline/end-status';
import type { FormatChoice } from '../../../src-shared/pipeline/types';
import { openConnection, wallClock, type ConnectionDeps } from '../connection/connection';
import { droppedBytesOf } from '../connection/failures';
import type { BuiltRequest } from '../connection/request-spec';
import { MAX_BACKLOG_BYTES, recordedOutcome, RECORDING_FLUSH_MS } from '../sessions/recorder-port';
import { createCountingSession, type CountedSession } from './counting-session';
import { decodeAsOf } from '../../../src-shared/recording/format';
import { createRecorder, RECORDING_TOOL, type RecorderOptions } from './recorder';

/**
 * One live request recorded to a file as it arrives (secrets redacted), its stream decoded
 * on the way with the counting sink: memory stays flat however long the run, every byte is
 * on disk, and the end status and findings come out as the app would show them. What the
 * CLI's `record` runs; the app's live sessions keep the whole session instead.
 */

export interface LiveRecordingOptions {
  format?: FormatChoice;
  inline?: InlineOptions;
  connection?: ConnectionDeps;
  /** Where the records go (default: the file, created exclusively); tests slow the disk down. */
  openSink?: RecorderOptions['openSink'];
  /** The response head arrived (accepted: a 2xx event stream the decoder reads). */
  onResponse?(status: number, accepted: boolean): void;
}

export interface LiveRecordingResult {
  /** Like a live session's: the stream completed, the user stopped it, or it failed (connection or disk). */
  state: 'complete' | 'stopped' | 'failed';
  httpStatus?: number;
  failure?: Failure;
  /** Writing the file failed (disk full, permission lost): it holds only what was written before. */
  recordingFailed: boolean;
  /** Bytes of the accepted stream (all decoded and all in the file). */
  bytes: number;
  counted: CountedSession;
  end: EndStatus;
}

export interface LiveRecording {
  readonly done: Promise<LiveRecordingResult>;
  /** Closes the request; `done` resolves with state 'stopped' once the file is closed. */
  stop(by?: StopCause): void;
  /** Stream bytes received and envelopes decoded so far. */
  progress(): { bytes: number; envelopes: number };
}

export { MAX_BACKLOG_BYTES };

/** How the connection's end reads as a live session's outcome (as in src-main/services/sessions). */
function outcomeOf(
  state: LiveRecordingResult['state'],
  failure: Failure | undefined,
  stoppedBy: StopCause,
): EndFacts['outcome'] {
  if (state === 'stopped') return { kind: 'stopped', by: stoppedBy };
  if (state === 'failed') return { kind: 'failed', message: failure?.message ?? 'The source failed.' };
  return undefined;
}

/** Creates the file (never overwriting one: RecordingExistsError) and sends the request. */
export async function startLiveRecording(
  request: BuiltRequest,
  path: string,
  options: LiveRecordingOptions = {},
): Promise<LiveRecording> {
  let diskFailure: Failure | undefined;
  let stoppedBy: StopCause = 'user';
  /** Set once the request is sent: a disk that fails stops it. */
  let stopRequest = (): void => undefined;
  const recorder = await createRecorder(path, {
    flushIntervalMs: RECORDING_FLUSH_MS,
    redact: true,
    tool: RECORDING_TOOL,
    ...decodeAsOf(options.format),
    ...(options.openSink ? { openSink: options.openSink } : {}),
    onError(error) {
      diskFailure = { kind: 'internal', message: `Recording to ${path} stopped: ${error.message}` };
      stopRequest();
    },
  });
  const session = createCountingSession({
    ...(options.format ? { format: options.format } : {}),
    ...(options.inline ? { inline: options.inline } : {}),
  });
  const leg = session.startLeg({ hints: { url: request.recorded.url } });
  const recorderLeg = recorder.startLeg(request.recorded);
  const now = options.connection?.now ?? wallClock;
  let httpStatus: number | undefined;
  let received = 0;

  const connection = openConnection(
    request.spec,
    {
      onResponse(head, accepted) {
        httpStatus = head.status;
        leg.hint({ headers: head.headers });
        recorder.response(recorderLeg, head, accepted);
        options.onResponse?.(head.status, accepted);
      },
      onChunk(bytes, receivedAt) {
        received += bytes.byteLength;
        recorder.chunk(recorderLeg, bytes, receivedAt);
        leg.push(bytes, receivedAt);
        if (recorder.backlog > MAX_BACKLOG_BYTES) waitForDisk();
      },
      onRejectedChunk(bytes, receivedAt) {
        recorder.chunk(recorderLeg, bytes, receivedAt);
      },
    },
    { ...options.connection, now },
  );

  const done = connection.done.then(async (outcome): Promise<LiveRecordingResult> => {
    const legEnd: LegEndInfo = outcome.failure
      ? { reason: outcome.reason, message: outcome.failure.message }
      : { reason: outcome.reason };
    recorder.endLeg(recorderLeg, recordedOutcome(legEnd));
    const streamEnd = leg.end();
    const counted = session.finish();
    await recorder.close().catch((error: unknown) => {
      diskFailure ??= {
        kind: 'internal',
        message: `Recording to ${path} failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    });
    const failure = diskFailure ?? outcome.failure;
    const state = diskFailure
      ? 'failed'
      : outcome.reason === 'complete'
        ? 'complete'
        : outcome.reason === 'stopped'
          ? 'stopped'
          : 'failed';
    const outcomeFacts = outcomeOf(state, failure, stoppedBy);
    const end = endStatusOf({
      stream: streamEnd.stream,
      ...counted.blockFacts,
      ...droppedBytesOf(outcome.failure),
      ...(outcomeFacts ? { outcome: outcomeFacts } : {}),
    });
    return {
      state,
      recordingFailed: diskFailure !== undefined,
      bytes: outcome.bytes,
      counted,
      end,
      ...(httpStatus !== undefined ? { httpStatus } : {}),
      ...(failure ? { failure } : {}),
    };
  });

  /** The disk is behind the network: stop reading until what was taken is in the file. */
  let waiting = false;
  function waitForDisk(): void {
    if (waiting) return;
    waiting = true;
    connection.pause();
    void recorder
      .flush()
      .catch(() => undefined)
      .then(() => {
        waiting = false;
        connection.resume();
      });
  }
  stopRequest = () => connection.stop();
  return {
    done,
    stop: (by = 'user') => {
      stoppedBy = by;
      connection.stop();
    },
    progress: () => ({ bytes: received, envelopes: session.envelopeCount() }),
  };
}
