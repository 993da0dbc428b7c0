import { NO_EXTRAS, type Envelope } from '../envelope/types';
import type { AgentState, OpenBlock, ReplayPoint } from './agents';
import type { ReplayDetector } from './replay-detector';

/** A streamed block that is open, its replay detector, and its agent's state. */
export interface LaneBlock {
  readonly state: AgentState;
  readonly open: OpenBlock;
  readonly replay: ReplayDetector<ReplayPoint>;
}

/**
 * The streamed block the last envelope appended a plain delta to. The next delta is nearly
 * always for the same block (a text streams in hundreds of deltas), so the reconstructor
 * checks it against the lane first and appends it without looking the agent and the block up
 * again. Whatever does not take the lane clears it: it never outlives the run of deltas it
 * saw, and every other envelope goes through the reconstructor's full checks.
 */
export class DeltaLane {
  private held: LaneBlock | undefined = undefined;
  private agent = '';
  private kind = '';
  private leg = -1;

  /** `envelope`, a delta without extras, was appended to `open`: the next one may take the lane. */
  follow(state: AgentState, open: OpenBlock, replay: ReplayDetector<ReplayPoint>, envelope: Envelope): void {
    if (envelope.extras !== NO_EXTRAS) return;
    // One object per block, not per delta.
    if (this.held?.open !== open) this.held = { state, open, replay };
    this.agent = envelope.agent;
    this.kind = envelope.type;
    this.leg = envelope.leg;
  }

  /**
   * The lane's block when `envelope` is one more delta of it as the full checks would find it:
   * the same agent, type and leg, not final, no extras (an id or a name may start another
   * block), some text, and the block still the agent's open one of its type (not split off by a
   * replay). Otherwise the lane is cleared. A block of another type that interrupts this one
   * never follows it in the lane: it clears the lane on its way through the full checks.
   */
  take(envelope: Envelope): LaneBlock | undefined {
    const held = this.held;
    if (held === undefined) return undefined;
    if (
      envelope.type === this.kind &&
      envelope.agent === this.agent &&
      envelope.leg === this.leg &&
      !envelope.final &&
      envelope.control === undefined &&
      envelope.extras === NO_EXTRAS &&
      envelope.delta !== '' &&
      held.state.open.get(this.kind) === held.open
    )
      return held;
    this.held = undefined;
    return undefined;
  }
}
