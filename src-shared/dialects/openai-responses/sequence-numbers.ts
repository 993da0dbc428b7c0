import type { ProviderEventContext } from '../provider/event-context';

/**
 * The `sequence_number` every Responses event carries: each must follow the last by one.
 * A response numbers its events from its own response.created, so the decoder restarts the
 * count there.
 */
export class SequenceNumbers {
  private last: number | undefined;

  /** A new response starts: its numbering owes nothing to the last one's. */
  restart(): void {
    this.last = undefined;
  }

  check(ctx: ProviderEventContext, type: string, sequence: number | undefined): void {
    if (sequence === undefined) return;
    const last = this.last;
    if (last !== undefined && sequence !== last + 1) {
      const how =
        sequence <= last
          ? `goes back from ${last} to ${sequence} (events reordered or repeated)`
          : `jumps from ${last} to ${sequence}: ${sequence - last - 1} event(s) missing`;
      ctx.report('provider.sequence-gap', `${type} in event ${ctx.frame.seq}: sequence_number ${how}.`);
    }
    // Counted on from where the stream went: one gap or step back is one finding, not one per later event.
    this.last = sequence;
  }
}
