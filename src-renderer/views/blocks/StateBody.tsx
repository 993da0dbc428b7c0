import { useMemo } from 'react';
import { useAsync } from '../../app/use-async';
import { formatCount } from '../../model/format';
import { stateChangeOf } from '../../model/state-change';
import { PlainBody, type BodyProps } from './BlockBodies';
import { BLOCK_IDS } from './testids';

/**
 * A `state` block (AG-UI's shared state as it stood after an event): what changed it — the
 * event and, for a STATE_DELTA, its JSON Patch, read from the block's envelope — above the
 * state itself.
 */
export function StateBody(props: BodyProps) {
  const { app, sessionId, detail } = props;
  const seq = detail.envelopes[0];
  const envelope = useAsync(seq === undefined ? null : `${sessionId}:${seq}`, () =>
    app.commands(sessionId).envelope(seq as number),
  );
  const change = useMemo(() => (envelope.value ? stateChangeOf(envelope.value.extras) : null), [envelope.value]);
  return (
    <>
      {envelope.error && <div className="inline-error">Could not read what changed the state: {envelope.error}</div>}
      {change && (
        <div className="state-change" data-testid={BLOCK_IDS.stateChange}>
          <span className="chip chip-small">{change.event}</span>
          {change.failed !== undefined && (
            <span className="state-change-failed">not applied, the state is as it was: {change.failed}</span>
          )}
          {change.operations.length > 0 && (
            <ol className="state-change-operations">
              {change.operations.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ol>
          )}
          {change.more > 0 && (
            <span className="muted">
              and {formatCount(change.more)} more operations (the envelope holds them all: ⇱ opens it)
            </span>
          )}
        </div>
      )}
      <PlainBody {...props} />
    </>
  );
}
