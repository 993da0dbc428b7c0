import type { ReplayAction, ReplayState as ReplayStatePayload } from '../../../src-shared/contract/payloads';
import type { RecordedAction } from '../../../src-shared/recording/types';
import type { ImportedChunk, ImportedLeg } from '../importers/types';
import type { ReplayClock } from '../replay/clock';
import { createReplay, type Replay } from '../replay/replay';
import type { TimelineSource } from '../replay/timeline';
import { isStreamResponse, rejectedLegFailure } from './file-load';
import { legEndFromRecording, recordedOutcome } from './recorder-port';
import type { LegState, SessionData } from './session-data';

/**
 * A replay session: another session's legs played back into a fresh session with their
 * recorded timing (×0.25 … ×20, or at once), with pause, step and seek. When a leg ends on
 * awaiting_frontend_tools the replay pauses there; answering plays the recorded continuation.
 */

/** Any session's bytes as a replay source: its legs, chunks and receive times, from memory. */
export function sessionAsSource(data: SessionData, actions: readonly RecordedAction[]): TimelineSource {
  function* chunks(leg: LegState): Generator<ImportedChunk> {
    const raw = leg.raw.count > 0 ? leg.raw : leg.rejected;
    for (let i = 0; i < raw.count; i++) {
      const chunk = raw.chunk(i);
      if (chunk) yield { bytes: chunk.bytes, receivedAt: chunk.receivedAt };
    }
  }
  // Re-iterable, like an importer's legs: each replay from the start reads the chunks again.
  const chunksOf = (leg: LegState): AsyncIterable<ImportedChunk> => ({
    [Symbol.asyncIterator]: () => {
      const inner = chunks(leg);
      return { next: () => Promise.resolve(inner.next()), return: () => Promise.resolve(inner.return(undefined)) };
    },
  });
  const legs: ImportedLeg[] = data.legs.map((leg) => ({
    index: leg.index,
    ...(leg.request ? { request: leg.request } : {}),
    ...(leg.response ? { response: leg.response } : {}),
    startedAt: leg.startedAt,
    ...(leg.end ? { outcome: recordedOutcome(leg.end) } : {}),
    chunkCount: leg.raw.count,
    byteCount: leg.raw.bytes,
    chunks: chunksOf(leg),
  }));
  return { legs, actions: [...actions] };
}

export interface ReplaySessionOptions {
  source: TimelineSource;
  sourceId: string;
  /** The session the replay plays into; replaced on a backward seek. */
  data: () => SessionData;
  /** A backward seek: start over with an empty session. */
  reset: () => void;
  onState: (state: ReplayStatePayload) => void;
  /** Envelopes of the source, for the position display. */
  total: number;
  speed: number;
  instant: boolean;
  clock?: ReplayClock;
}

export interface ReplaySession {
  control(action: ReplayAction): Promise<ReplayStatePayload>;
  /** Plays on past a tool-results pause (the recorded continuation). */
  continueAfterAnswer(): void;
  state(): ReplayStatePayload;
  dispose(): Promise<void>;
}

export function createReplaySession(options: ReplaySessionOptions): ReplaySession {
  let speed = options.speed;
  let instant = options.instant;
  let legIndex = -1;
  const pausedForTools = { value: false };

  const payload = (): ReplayStatePayload => ({
    sessionId: options.data().id,
    source: options.sourceId,
    playing: replay.state.status === 'playing',
    speed,
    instant,
    position: options.data().envelopeCount,
    total: options.total,
    finished: replay.state.status === 'ended',
  });

  const currentLeg = (): LegState | undefined => options.data().legs[legIndex];

  const replay: Replay = createReplay(
    options.source,
    {
      onLegStart(leg) {
        const data = options.data();
        legIndex = data.openLeg(leg.index === 0 ? 'file' : 'tool-results', leg.request ?? null, leg.startedAt ?? 0).index;
        if (leg.response) data.setResponse(legIndex, leg.response);
      },
      onChunk(chunk) {
        const data = options.data();
        const state = currentLeg();
        if (!state) return;
        if (isStreamResponse(chunk.leg.response)) data.push(state.index, chunk.bytes, chunk.receivedAt);
        else data.keepRejected(state.index, chunk.bytes, chunk.receivedAt);
      },
      onLegEnd(leg) {
        const data = options.data();
        const state = currentLeg();
        if (!state) return;
        const failure = rejectedLegFailure(leg.response, state);
        if (failure) data.endLeg(state.index, { reason: 'failed', message: failure.message }, failure);
        else data.endLeg(state.index, legEndFromRecording(leg.outcome));
        // A pause for frontend tools: wait for the user's answer before the continuation.
        if (data.pendingTools() !== null && leg.index < options.source.legs.length - 1) {
          pausedForTools.value = true;
          replay.pause();
        }
      },
      onReset() {
        legIndex = -1;
        options.reset();
      },
      onStateChange() {
        options.onState(payload());
      },
    },
    { speed: instant ? 'fast' : speed, ...(options.clock ? { clock: options.clock } : {}) },
  );

  return {
    async control(action) {
      const data = options.data;
      switch (action.kind) {
        case 'play':
          replay.play();
          break;
        case 'pause':
          replay.pause();
          break;
        case 'step': {
          const target = data().envelopeCount + (action.count ?? 1);
          await replay.stepUntil(() => data().envelopeCount >= target);
          break;
        }
        case 'seek': {
          const wanted = action.envelope + 1;
          if (data().envelopeCount > wanted) await replay.seekUntil(() => data().envelopeCount >= wanted);
          else await replay.stepUntil(() => data().envelopeCount >= wanted);
          break;
        }
        case 'speed':
          speed = action.speed;
          instant = action.instant ?? false;
          replay.setSpeed(instant ? 'fast' : speed);
          break;
      }
      return payload();
    },
    continueAfterAnswer() {
      if (!pausedForTools.value) return;
      pausedForTools.value = false;
      replay.play();
    },
    state: payload,
    dispose: () => replay.dispose(),
  };
}
