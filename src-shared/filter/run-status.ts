import type { Envelope } from '../envelope/types';
import type { LegOutcome } from '../recording/types';
import type { RunStatus } from './assertions';

/**
 * How a recorded run ended, from its last leg: `failed` when the transport failed (network or
 * HTTP error), `stopped` when the user or the recorder stopped it, `error` when the server
 * sent an error frame, `done` when it sent [DONE] (a run paused on frontend tools ends so
 * too), else `truncated`: the stream stopped without either.
 */
export function runStatus(envelopes: readonly Envelope[], outcomes: readonly (LegOutcome | undefined)[] = []): RunStatus {
  const lastLeg = Math.max(outcomes.length - 1, envelopes.at(-1)?.leg ?? 0);
  const outcome = outcomes[lastLeg];
  if (outcome?.reason === 'error') return 'failed';
  if (outcome?.reason === 'aborted' || outcome?.reason === 'closed') return 'stopped';
  let done = false;
  for (let i = envelopes.length - 1; i >= 0 && envelopes[i]!.leg === lastLeg; i--) {
    const control = envelopes[i]!.control;
    if (control === 'error-frame') return 'error';
    if (control === 'done') done = true;
  }
  return done ? 'done' : 'truncated';
}
