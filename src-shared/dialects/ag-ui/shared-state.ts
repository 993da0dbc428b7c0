import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import type { ProviderEventContext, WireEvent } from '../provider/event-context';
import { applyPatch } from './json-patch';
import type { RunView } from './run-view';

/**
 * Where the state's value comes from: a snapshot (or the run's input, echoed on RUN_STARTED);
 * `{}` assumed for the request's state, which the stream does not carry; or nothing yet.
 */
type Baseline = 'none' | 'assumed' | 'known';

/**
 * The agent state of AG-UI's snapshot–delta pattern (docs/protocols/ag-ui.md, "State"):
 * STATE_SNAPSHOT replaces it, STATE_DELTA amends it with a JSON Patch applied atomically.
 * After each of them the whole current state is sent on as a `state` envelope, so the blocks
 * view shows the state as it stood after every event. The state outlives a run: the next run
 * of the stream starts from it, unless its RUN_STARTED echoes an input with a state of its own.
 */
export class SharedState {
  private value: unknown = {};
  private baseline: Baseline = 'none';

  constructor(private readonly run: RunView) {}

  /** RUN_STARTED echoing its input: the run starts from the input's state (an absent one is `{}`). */
  fromInput(input: unknown): void {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return;
    const state = (input as Record<string, unknown>)['state'];
    this.value = state === undefined ? {} : state;
    this.baseline = 'known';
  }

  snapshot(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    if (!('snapshot' in event)) {
      ctx.report(
        'provider.invalid-event',
        `${type} in event ${ctx.frame.seq} has no snapshot; the state is kept as it was.`,
      );
      ctx.wire(type, event);
      return;
    }
    this.value = event['snapshot'];
    this.baseline = 'known';
    this.emit(ctx, type, { event: type });
  }

  delta(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const patch = event['delta'];
    if (this.baseline === 'none') {
      this.baseline = 'assumed';
      ctx.report(
        'ag-ui.delta-before-snapshot',
        `${type} in event ${ctx.frame.seq} amends a state no STATE_SNAPSHOT gave: the request's state, which the stream does not carry. The state shown starts from {} (what an absent state means); later deltas are applied to it.`,
      );
    }
    const result = applyPatch(this.value, patch);
    if (result.ok) {
      this.value = result.value;
      if (result.dropped.length > 0)
        ctx.report(
          'provider.unknown-event',
          `${type} in event ${ctx.frame.seq}: ${result.dropped.join(', ')} ${result.dropped.length === 1 ? 'is' : 'are'} no RFC 6902 operation; dropped from the patch, as a client drops them, and the rest applied.`,
        );
      this.emit(ctx, type, { event: type, patch });
      return;
    }
    if (this.baseline === 'assumed')
      ctx.report(
        'ag-ui.delta-before-snapshot',
        `${type} in event ${ctx.frame.seq} does not apply to the state assumed from {} (${result.error}): the request's state it amends is not in the stream. The state shown stays as it was.`,
      );
    else
      ctx.report(
        'ag-ui.state-delta-failed',
        `${type} in event ${ctx.frame.seq} does not apply: ${result.error}. None of its operations is applied; the state stays as it was, and the client's state differs from the agent's until the next STATE_SNAPSHOT.`,
      );
    this.emit(ctx, type, { event: type, patch, applied: false, error: result.error });
  }

  /** The state as it stands now, as one complete `state` envelope. */
  private emit(ctx: ProviderEventContext, type: string, extras: Record<string, unknown>): void {
    ctx.emit(
      { type: KIND.state, final: true, delta: jsonText(this.value), extras },
      unified('stream.message_delta', this.run.ids(), { kind: type.toLowerCase() }),
    );
  }
}
