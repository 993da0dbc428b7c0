import type { Failure, LegEndInfo } from '../../../../src-shared/contract/payloads';
import type {
  LegOutcome,
  RecordedRequest,
  RecordedResponse,
  RecordingRecord,
} from '../../../../src-shared/recording/types';
import { chunkBytes } from '../../importers/recording-source';
import { REJECTED_BODY_CAP } from '../../connection/connection';
import { rejectedResponseFailure } from '../../connection/failures';
import { legIsStream, type FileSpan, type ImportedSource } from '../../importers/types';
import { decidedByFirstBytes, framingOfHead, isStreamResponse } from '../../../../src-shared/pipeline/leg-framing';
import { legEndFromRecording } from '../recorder-port';
import type { LegState } from '../store/leg-state';
import type { SessionStore } from '../store/session-store';

/**
 * Decodes an opened file into a session, leg by leg, as its chunks stream from disk. Control
 * returns to the event loop every few milliseconds so the first rows reach the renderer while
 * the rest of a large file is still being decoded, and IPC stays answered.
 */

/** Longest stretch of decoding without yielding to the event loop. */
const SLICE_MS = 12;

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface FileLoadOptions {
  now: () => number;
  /** Checked between chunks: the session was closed, stop reading. */
  cancelled: () => boolean;
}

/** The failure to show for a leg whose recorded response was not a stream, with its body; null for a stream. */
export function rejectedLegFailure(
  stream: boolean,
  response: RecordedResponse | undefined,
  leg: LegState,
  request: RecordedRequest | null,
): Failure | null {
  if (stream || !response) return null;
  let requestUrl: URL | undefined;
  try {
    requestUrl = request ? new URL(request.url) : undefined;
  } catch {
    requestUrl = undefined; // a recorded URL that does not parse: the redirect target is named as recorded
  }
  const body = new TextDecoder().decode(leg.rejected.slice(0, REJECTED_BODY_CAP));
  return rejectedResponseFailure(response, body, leg.rejected.bytes > REJECTED_BODY_CAP, requestUrl);
}

export async function loadImportedSource(
  session: SessionStore,
  source: ImportedSource,
  options: FileLoadOptions,
): Promise<void> {
  let sliceStart = performance.now();
  for (const leg of source.legs) {
    if (options.cancelled()) return;
    const state = session.openLeg('file', leg.request ?? null, leg.startedAt ?? 0);
    if (leg.response) session.setResponse(state.index, leg.response);
    // A recorded response that was not a stream (an error page) is shown, never decoded.
    const stream = legIsStream(leg);
    for await (const chunk of leg.chunks) {
      if (options.cancelled()) return;
      if (stream) session.push(state.index, chunk.bytes, chunk.receivedAt, false, chunk.record);
      else session.keepRejected(state.index, chunk.bytes, chunk.receivedAt);
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
    }
    endFileLeg(
      session,
      state,
      stream,
      leg.request ?? null,
      // A recording, or a HAR this inspector exported, says how each leg ended; other files end when their bytes do.
      source.kind === 'recording' || leg.outcome ? legEndFromRecording(leg.outcome) : { reason: 'complete' },
    );
  }
}

/** Ends a leg read from a file: a recorded response that was not a stream fails it, with its body. */
function endFileLeg(
  session: SessionStore,
  state: LegState,
  stream: boolean,
  request: RecordedRequest | null,
  end: LegEndInfo,
): void {
  const failure = rejectedLegFailure(stream, state.response ?? undefined, state, request);
  if (failure) session.endLeg(state.index, { reason: 'failed', message: failure.message }, failure);
  else session.endLeg(state.index, end);
}

/**
 * Decodes a recording while it is read (`source.readRecords`), so the first rows come while
 * the rest of the file is still on disk. Each record is taken as it comes, which decodes the
 * legs exactly as loadImportedSource would from the finished index as long as each leg's
 * records come before the next leg's and its response before its chunks — how every recorder
 * writes them. Resolves false, having stopped decoding, when a record breaks that order (the
 * format allows legs to interleave): the session must then be decoded again from the index
 * (loadImportedSource), which `readRecords` has completed by then.
 */
export async function loadRecordingAsRead(
  session: SessionStore,
  source: ImportedSource,
  options: FileLoadOptions,
): Promise<boolean> {
  if (!source.readRecords) throw new Error(`${source.path} is not a recording opened to be streamed`);
  /** The leg being decoded, with what its records said so far. */
  interface OpenLeg {
    state: LegState;
    request: RecordedRequest | null;
    outcome?: LegOutcome;
    chunks: number;
    stream: boolean;
    /** A response whose record does not say whether it was a stream, and whose head leaves it to the first bytes. */
    undecided?: RecordedResponse;
  }
  let open: OpenLeg | null = null;
  const close = (): void => {
    if (open) endFileLeg(session, open.state, open.stream, open.request, legEndFromRecording(open.outcome));
    open = null;
  };
  /** The leg `record` belongs to, opening it (and any without records of their own before it, empty); null when it was closed already. */
  const legOf = (record: RecordingRecord & { leg: number }): OpenLeg | null => {
    for (let next = session.legs.length; record.leg >= next; next++) {
      close();
      const request = record.type === 'leg' && record.leg === next ? record.request : null;
      open = { state: session.openLeg('file', request, request ? record.t : 0), request, chunks: 0, stream: true };
      if (request) return null; // the leg record itself: taken
    }
    return record.leg === open?.state.index ? open : null;
  };
  const take = (record: RecordingRecord, line: FileSpan): boolean => {
    if (record.type === 'action') return true;
    const opened = session.legs.length;
    const leg = legOf(record);
    if (!leg) return session.legs.length > opened;
    switch (record.type) {
      case 'leg':
        return false; // the leg's start after another of its records
      case 'response':
        if (leg.chunks > 0) return false;
        session.setResponse(leg.state.index, {
          status: record.status,
          statusText: record.statusText,
          headers: record.headers,
        });
        leg.stream = record.stream ?? isStreamResponse(record);
        if (record.stream === undefined && decidedByFirstBytes(record)) leg.undecided = record;
        return true;
      case 'chunk': {
        leg.chunks += 1;
        const bytes = chunkBytes(record);
        // As the index decides it (recording-source.ts): by the first chunk.
        if (leg.undecided && leg.chunks === 1)
          leg.stream = isStreamResponse(leg.undecided, framingOfHead(bytes) === 'json-array');
        if (leg.stream) session.push(leg.state.index, bytes, record.t, false, line);
        else session.keepRejected(leg.state.index, bytes, record.t);
        return true;
      }
      case 'end':
        leg.outcome = { reason: record.reason, ...(record.message !== undefined ? { message: record.message } : {}) };
        return true;
    }
  };
  let inOrder = true;
  // A session closed while it loads stops the read too.
  await source.readRecords((record, line) => {
    if (inOrder && !options.cancelled()) inOrder = take(record, line);
  }, options.cancelled);
  if (inOrder && !options.cancelled()) close();
  return inOrder;
}
