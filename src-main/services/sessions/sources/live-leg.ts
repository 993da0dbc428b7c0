import type { Failure, LegEndInfo } from '../../../../src-shared/contract/payloads';
import type { RecordedRequest } from '../../../../src-shared/recording/types';
import {
  consumerFailure,
  openConnection,
  type Connection,
  type ConnectionDeps,
  type ConnectionOutcome,
  type ConnectionSpec,
} from '../../connection/connection';
import { createStreamMasker } from '../../../../src-shared/requests/secret-stream';
import { maskSecrets } from '../../../../src-shared/requests/variables';
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
export const CLOSED_WHILE_OPEN = {
  reason: 'closed',
  message: 'The session was closed while the leg was open (its tab, the window or the inspector was closed).',
} as const;

/** The environment secret values the request was sent with: masked in everything the server sends back. */
export type LegSecrets = readonly { name: string; value: string }[];

export function startLiveLeg(
  session: SessionStore,
  kind: LegKind,
  request: { spec: ConnectionSpec; recorded: RecordedRequest },
  recorder: RecorderPort | null,
  deps: ConnectionDeps & { now: () => number },
  hooks: LiveLegHooks = {},
  secrets: LegSecrets = [],
): LiveLeg {
  const state = session.openLeg(kind, request.recorded, deps.now());
  const leg = state.index;
  const recorderLeg = recorder ? recorder.startLeg(request.recorded) : -1;
  let accepted = false;
  // A server may echo a secret back (an error quoting the token): masked before the session,
  // the recording or the spool file sees a byte (docs/requests.md, "Secrets").
  const masker = createStreamMasker(secrets);
  const maskText = (text: string): string => (masker ? maskSecrets(text, secrets) : text);
  let rejected = false;
  let lastReceivedAt = 0;
  const deliver = (bytes: Uint8Array, receivedAt: number): void => {
    if (bytes.length === 0) return;
    recorder?.chunk(recorderLeg, bytes, receivedAt);
    if (rejected) session.keepRejected(leg, bytes, receivedAt);
    else session.push(leg, bytes, receivedAt);
  };
  const receive = (bytes: Uint8Array, receivedAt: number): void => {
    lastReceivedAt = receivedAt;
    deliver(masker ? masker.push(bytes) : bytes, receivedAt);
  };

  const connection = openConnection(
    request.spec,
    {
      onResponse(head, ok) {
        accepted = ok;
        const shown = masker
          ? { ...head, headers: head.headers.map(([name, value]): [string, string] => [name, maskText(value)]) }
          : head;
        session.setResponse(leg, shown);
        recorder?.response(recorderLeg, shown, ok);
        hooks.onResponse?.(ok);
      },
      onChunk: receive,
      onRejectedChunk(bytes, receivedAt) {
        rejected = true;
        receive(bytes, receivedAt);
      },
    },
    deps,
  );

  const done = connection.done.then((outcome): LiveLegEnd => {
    let ended = legEnd(masker ? maskOutcome(outcome, maskText) : outcome);
    if (masker) {
      try {
        deliver(masker.flush(), lastReceivedAt);
      } catch (error) {
        ended = legEnd({ ...outcome, reason: 'failed', failure: consumerFailure(error) });
      }
    }
    const unkept = endLegInSession(session, leg, ended.end, ended.failure);
    if (unkept) ended = legEnd({ ...outcome, reason: 'failed', failure: unkept });
    recorder?.endLeg(
      recorderLeg,
      ended.end.reason === 'stopped' && hooks.closing?.() ? CLOSED_WHILE_OPEN : recordedOutcome(ended.end),
    );
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
export function endLegInSession(
  session: SessionStore,
  leg: number,
  end: LegEndInfo,
  failure?: Failure,
): Failure | undefined {
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

/** The outcome with its failure's message and body masked (a rejected body quoting a secret). */
function maskOutcome(outcome: ConnectionOutcome, mask: (text: string) => string): ConnectionOutcome {
  const { failure } = outcome;
  if (!failure) return outcome;
  return {
    ...outcome,
    failure: {
      ...failure,
      message: mask(failure.message),
      ...(failure.body !== undefined ? { body: mask(failure.body) } : {}),
    },
  };
}

function legEnd(outcome: ConnectionOutcome): LiveLegEnd {
  const { failure } = outcome;
  return failure
    ? { outcome, end: { reason: outcome.reason, message: failure.message }, failure }
    : { outcome, end: { reason: outcome.reason } };
}
