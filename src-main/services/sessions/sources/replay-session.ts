import type {
  ReplayControlRequest,
  ReplayState,
  SessionSummary,
  StartReplayRequest,
} from '../../../../src-shared/contract/payloads';
import { BREAKPOINT_TYPE_MAX, REPLAY_TYPES_MAX } from '../../../../src-shared/contract/payloads';
import { createAnswerLedger } from '../../tool-results/answer-ledger';
import type { Runtime, SessionRegistry } from '../session-registry';
import { createReplaySession } from './replay-player';
import { sessionAsSource } from './replay-source';

/**
 * Replay sessions: another session's legs played back into a fresh session by the player
 * (replay-player.ts); playing it again from the start is a new generation of the session.
 */

export function createReplaySessions(registry: SessionRegistry) {
  const { deps, now, spooling, batcher, announce, register, changed, newStore, newId, runtimeOf, events } = registry;
  const replayState = events.replayState;

  const startReplay = (source: Runtime, speed: number, instant: boolean, paused: boolean): SessionSummary => {
    if (source.current || source.loading)
      throw new Error('The session is still receiving; replay it once it has ended.');
    const init = {
      id: newId(),
      title: `Replay of ${source.data.title}`,
      source: { kind: 'replay' as const, of: source.data.id },
      createdAt: now(),
      format: source.data.formatChoice,
      inline: source.data.inline(),
      ...spooling,
    };
    const data = newStore(init);
    data.state = 'streaming';
    const rt = register(data, { run: source.run, networkChunks: source.networkChunks });
    const sourceData = source.data;
    let wasPlaying = false;
    const replay = createReplaySession({
      source: sessionAsSource(sourceData, source.actions),
      sourceId: sourceData.id,
      data: () => rt.data,
      reset: () => {
        const fresh = newStore({ ...init, generation: rt.data.generation + 1 });
        fresh.state = 'streaming';
        rt.data = fresh;
        rt.ledger = createAnswerLedger();
        changed(init.id);
        // The new generation is announced before any answer about it (an envelope the old one
        // had is not in it yet), so a page never takes that answer for the session it shows.
        announce();
      },
      onState: (state) => {
        if (state.finished && rt.data.state === 'streaming') {
          if (rt.data.pendingTools() === null) rt.data.finish();
          rt.data.state = 'complete';
        } else if (!state.finished && rt.data.state === 'complete') {
          rt.data.state = 'streaming';
        }
        // Stopped (paused, stepped, at a recorded prompt or breakpoint, ended): rows and list
        // show where, now; started again: the list says it plays.
        if (!state.playing) batcher.flush(rt.data);
        if (!state.playing || !wasPlaying) announce();
        wasPlaying = state.playing;
        replayState.fire(state);
      },
      total: sourceData.envelopeCount,
      envelopeEnd: (seq) => {
        const envelope = sourceData.envelope(seq);
        return envelope ? { leg: envelope.leg, byteEnd: envelope.byteEnd } : undefined;
      },
      networkChunks: source.networkChunks,
      speed,
      instant,
      paused,
      // A stream names its own types: only those a breakpoint can name are offered.
      types: sourceData
        .envelopeTypes()
        .filter((type) => type !== '' && type.length <= BREAKPOINT_TYPE_MAX)
        .slice(0, REPLAY_TYPES_MAX),
      ...(deps.replayClock ? { clock: deps.replayClock } : {}),
    });
    rt.replay = replay;
    return data.summary();
  };

  function startReplayOf({ sessionId, speed, instant, paused }: StartReplayRequest): SessionSummary {
    return startReplay(runtimeOf(sessionId), speed ?? 1, instant ?? false, paused ?? false);
  }

  async function replayControl({ sessionId, action }: ReplayControlRequest): Promise<ReplayState> {
    const rt = runtimeOf(sessionId);
    if (!rt.replay) throw new Error(`Session ${sessionId} is not a replay; start one with startReplay`);
    return rt.replay.control(action);
  }

  return { startReplay: startReplayOf, replayControl };
}
