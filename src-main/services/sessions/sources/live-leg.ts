import type { Failure, LegEndInfo } from '../../../../src-shared/contract/payloads';
import type { RecordedRequest } from '../../../../src-shared/recording/types';
import { consumerFailure, openConnection, type Connection, type ConnectionDeps, type ConnectionOutcome, type ConnectionSpec } from '../../connection/connection';
import { recordedOutcome, type RecorderPort } from '../recorder-port';
import type { LegKind } from '../store/leg-state';
import type { SessionStore } from '../store/session-store';

/**
 * One live leg: an HTTP exchange whose accepted body goes chunk by chunk into the session's
 * decoder and, when recording, into the recorder, both with the chunk's receive time.
 */
export interface LiveLeg {
  readonly leg: number;
  readonly connection: Connection;
  /** Resolves after the leg was ended in the session (and the recording). */
  readonly done: Promise<LiveLegEnd>;
  /** True once a 2xx event-stream response head arrived. */
  accepted(): boolean;
}

export interface LiveLegEnd {
  outcome: ConnectionOutcome;
  end: LegEndInfo;
  failure?: Failure;
}

export interface LiveLegHooks {
  onResponse?(accepted: boolean): void;
  /** The session is being closed (its tab, the window, the inspector on SIGTERM): nobody stopped the stream. */
  closing?(): boolean;
}

/** How a leg that was open when its session closed is recorded: not as stopped by the user. */
export const CLOSED_WHILE_OPEN = { reason: 'closed', message: 'The session was closed while the leg was open (its tab, the window or the inspector was closed).' } as const;

export function startLiveLeg(
  session: SessionStore,
  kind: LegKind,
  request: { spec: ConnectionSpec; recorded: RecordedRequest },
  recorder: RecorderPort | null,
  deps: ConnectionDeps & { now: () => number },
  hooks: LiveLegHooks = {},
): LiveLeg {
  const state = session.openLeg(kind, request.recorded, deps.now());
  const leg = state.index;
  const recorderLeg = recorder ? recorder.startLeg(request.recorded) : -1;
  let accepted = false;

  const connection = openConnection(
    request.spec,
    {
      onResponse(head, ok) {
        accepted = ok;
        session.setResponse(leg, head);
        recorder?.response(recorderLeg, head);
        hooks.onResponse?.(ok);
      },
      onChunk(bytes, receivedAt) {
        recorder?.chunk(recorderLeg, bytes, receivedAt);
        session.push(leg, bytes, receivedAt);
      },
      onRejectedChunk(bytes, receivedAt) {
        recorder?.chunk(recorderLeg, bytes, receivedAt);
        session.keepRejected(leg, bytes, receivedAt);
      },
    },
    deps,
  );

  const done = connection.done.then((outcome): LiveLegEnd => {
    let ended = legEnd(outcome);
    const unkept = endLegInSession(session, leg, ended.end, ended.failure);
    if (unkept) ended = legEnd({ ...outcome, reason: 'failed', failure: unkept });
    recorder?.endLeg(recorderLeg, ended.end.reason === 'stopped' && hooks.closing?.() ? CLOSED_WHILE_OPEN : recordedOutcome(ended.end));
    return ended;
  });

  return { leg, connection, done, accepted: () => accepted };
}

/**
 * Ends `leg` in the session; returns why that end could not be kept, if it could not. What a
 * leg's end decodes (frames held until then, their findings) may fail to be written (a spool
 * file on a full disk): the leg then failed with that reason, whatever its source said. Ending
 * it again records that end (finishing the session would otherwise end it as closed).
 */
export function endLegInSession(session: SessionStore, leg: number, end: LegEndInfo, failure?: Failure): Failure | undefined {
  try {
    session.endLeg(leg, end, failure);
    return undefined;
  } catch (error) {
    const unkept = consumerFailure(error);
    try {
      session.endLeg(leg, { reason: 'failed', message: unkept.message }, unkept);
    } catch {
      // Still failing: the failure above is the leg's end all the same.
    }
    return unkept;
  }
}

function legEnd(outcome: ConnectionOutcome): LiveLegEnd {
  const { failure } = outcome;
  return failure ? { outcome, end: { reason: outcome.reason, message: failure.message }, failure } : { outcome, end: { reason: outcome.reason } };
}
