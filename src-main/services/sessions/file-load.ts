import type { Failure } from '../../../src-shared/contract/payloads';
import type { RecordedRequest, RecordedResponse } from '../../../src-shared/recording/types';
import { headerValue, isEventStream, REJECTED_BODY_CAP } from '../connection/connection';
import { rejectedResponseFailure } from '../connection/failures';
import type { ImportedSource } from '../importers/types';
import { legEndFromRecording } from './recorder-port';
import type { LegState, SessionData } from './session-data';

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

/** A recorded response that is a stream (absent: a capture without a response head). */
export function isStreamResponse(response: RecordedResponse | undefined): boolean {
  if (!response) return true;
  const contentType = headerValue(response.headers, 'content-type') ?? '';
  return response.status >= 200 && response.status <= 299 && isEventStream(contentType);
}

/** The failure to show for a leg whose recorded response was not a stream, with its body; null for a stream. */
export function rejectedLegFailure(response: RecordedResponse | undefined, leg: LegState, request: RecordedRequest | null): Failure | null {
  if (!response || isStreamResponse(response)) return null;
  let requestUrl: URL | undefined;
  try {
    requestUrl = request ? new URL(request.url) : undefined;
  } catch {
    requestUrl = undefined; // a recorded URL that does not parse: the redirect target is named as recorded
  }
  const body = new TextDecoder().decode(leg.rejected.slice(0, REJECTED_BODY_CAP));
  return rejectedResponseFailure(response, body, leg.rejected.bytes > REJECTED_BODY_CAP, requestUrl);
}

export async function loadImportedSource(session: SessionData, source: ImportedSource, options: FileLoadOptions): Promise<void> {
  let sliceStart = performance.now();
  for (const leg of source.legs) {
    if (options.cancelled()) return;
    const state = session.openLeg('file', leg.request ?? null, leg.startedAt ?? 0);
    if (leg.response) session.setResponse(state.index, leg.response);
    // A recorded response that was not a stream (an error page) is shown, never decoded.
    const stream = isStreamResponse(leg.response);
    for await (const chunk of leg.chunks) {
      if (options.cancelled()) return;
      if (stream) session.push(state.index, chunk.bytes, chunk.receivedAt);
      else session.keepRejected(state.index, chunk.bytes, chunk.receivedAt);
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
    }
    const failure = rejectedLegFailure(leg.response, state, leg.request ?? null);
    if (failure) session.endLeg(state.index, { reason: 'failed', message: failure.message }, failure);
    else session.endLeg(state.index, source.kind === 'recording' ? legEndFromRecording(leg.outcome) : { reason: 'complete' });
  }
}
