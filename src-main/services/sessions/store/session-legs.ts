import type { Failure, LegEndInfo } from '../../../../src-shared/contract/payloads';
import type { SessionDecoder } from '../../../../src-shared/pipeline/session-decoder';
import type { RecordedRequest, RecordedResponse } from '../../../../src-shared/recording/types';
import type { FileSpan } from '../../importers/types';
import { FrameTable, type EnvelopeTable } from './envelope-table';
import { createRawChunks, type RawChunks } from './raw-chunks';
import type { LegKind, LegState } from './leg-state';
import type { SessionStore } from './session-store';

/** What a session's legs need of its store. */
export interface SessionLegsDeps {
  sessionId: string;
  legs: LegState[];
  decoder: SessionDecoder;
  envelopes: EnvelopeTable;
  /** Where a new leg's raw bytes are kept: read back from the recording for a file's legs, else spooled. */
  raw: (kind: LegKind, leg: number) => RawChunks;
  finished: () => boolean;
  notify: () => void;
  /** Decodes a chunk, its changes reported once when it is done (decoder-wiring's `chunkChanges`). */
  decoding: (run: () => void) => void;
}

/**
 * A session's legs from start to end: each opened with its own leg decoder, its response
 * head, its chunks kept and decoded as they come (or kept aside when the response was not a
 * stream), and its end with what the decoder made of it.
 */
export function sessionLegs(deps: SessionLegsDeps): Pick<
  SessionStore,
  'openLeg' | 'setResponse' | 'push' | 'keepRejected' | 'endLeg'
> & {
  legAt: (leg: number) => LegState;
} {
  const legAt = (leg: number): LegState => {
    const state = deps.legs[leg];
    if (!state) throw new Error(`Session ${deps.sessionId} has no leg ${leg}`);
    return state;
  };
  return {
    legAt,
    openLeg(kind: LegKind, request: RecordedRequest | null, startedAt: number): LegState {
      if (deps.finished()) throw new Error('This session is finished; no further leg can be added');
      const previous = deps.legs.at(-1);
      if (previous?.decoder) throw new Error(`Leg ${previous.index} is still open`);
      // The URL is evidence of the dialect where the bytes say nothing (docs/dialects.md).
      const legDecoder = deps.decoder.startLeg(request ? { hints: { url: request.url } } : {});
      const state: LegState = {
        index: legDecoder.leg,
        kind,
        request,
        response: null,
        startedAt,
        // A file session's legs are read from its recording; a leg answered live after them is spooled.
        raw: deps.raw(kind, legDecoder.leg),
        rejected: createRawChunks(),
        frames: new FrameTable(),
        format: null,
        detection: null,
        lastEventId: '',
        retry: null,
        decoder: legDecoder,
        firstEnvelope: deps.envelopes.count,
        contentEnvelopes: 0,
      };
      deps.legs.push(state);
      return state;
    },
    setResponse(leg: number, response: RecordedResponse) {
      const state = legAt(leg);
      state.response = response;
      state.decoder?.hint({ headers: response.headers });
    },
    push(leg: number, bytes: Uint8Array, receivedAt: number, continues = false, record?: FileSpan) {
      const state = legAt(leg);
      if (!state.decoder) throw new Error(`Leg ${leg} has ended`);
      if (continues && state.raw.count > 0) state.raw.extendLast(bytes);
      else state.raw.append(bytes, receivedAt, record);
      const decoder = state.decoder;
      deps.decoding(() => decoder.push(bytes, receivedAt));
    },
    keepRejected(leg: number, bytes: Uint8Array, receivedAt: number) {
      legAt(leg).rejected.append(bytes, receivedAt);
    },
    endLeg(leg: number, end: LegEndInfo, failure?: Failure) {
      const state = legAt(leg);
      if (!state.decoder) return;
      const result = state.decoder.end();
      state.decoder = null;
      state.frames.trim();
      state.format = result.format;
      state.detection = result.detection;
      state.lastEventId = result.lastEventId;
      state.retry = result.retry;
      state.stream = result.stream;
      state.framing = result.framing;
      state.end = end;
      state.endedAt = deps.legs[leg]?.raw.count ? Math.max(state.startedAt, lastReceive(state)) : state.startedAt;
      if (failure) state.failure = failure;
      deps.notify();
    },
  };
}

function lastReceive(leg: LegState): number {
  return leg.raw.receivedAt(leg.raw.count - 1) ?? leg.startedAt;
}
