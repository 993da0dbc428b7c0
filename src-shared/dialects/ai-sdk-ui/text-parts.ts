import type { DiagnosticSink } from '../../diagnostics/types';
import { NO_EXTRAS } from '../../envelope/types';
import { unified, type UnifiedEvent } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { createBlockTracker, type BlockTracker, type StartedBlock } from '../block-tracker';
import type { WireEvent } from '../provider/event-context';
import type { MessageHost } from './tool-calls';
import type { TextChunks } from '../provider/text-chunks';

/**
 * The text and reasoning parts of one AI SDK message: started, streamed and ended by kind and
 * id (the UI message stream's `text-start/delta/end`; the v4 data stream's implicit parts), as
 * streamed text and thinking blocks, their deltas kept for the assistant message (a pause's
 * continuation needs it).
 *
 * Parts of one kind may be open at once (`streamText` interleaves a provider's reasoning parts
 * by id; a frontend appends each delta to its own part), but reconstruction keeps one open
 * block per kind: a part started or continued while another part's block is open closes that
 * block there, and its own block (a continuation block, when it already had one) opens. The
 * text of two parts is never merged, and no part's end is reported missing for it.
 *
 * A `finish-step` makes a frontend forget the parts still open (`processUIMessageStream`
 * empties its active text and reasoning parts there): a later delta or end of such a part
 * fails in it. Reconstruction keeps that text in the part's block and reports the failure
 * once per part; a later start of the id is a new part, no replay.
 */

export type TextKind = 'text' | 'reasoning';

/** An open text or reasoning part. */
export interface OpenText extends StartedBlock {
  kind: TextKind;
  id: string;
  /** The envelope type of its deltas (text or thinking). */
  type: string;
  /** Its deltas, for the assistant message (assistant-parts.ts). */
  chunks: TextChunks;
  /** The unified form of its deltas, made at the first: they all share it. */
  deltaEvent: UnifiedEvent | undefined;
  /** The event of the `finish-step` a frontend forgot the part at, while nothing of it since was reported. */
  steppedOut: number | undefined;
}

const TEXT_KINDS = {
  text: { type: KIND.text, channel: 'output_text', delta: 'text_delta', start: 'text-start' },
  reasoning: { type: KIND.thinking, channel: 'reasoning', delta: 'reasoning_delta', start: 'reasoning-start' },
} as const;

export class TextParts {
  /** Open parts by id, one tracker per kind: a text and a reasoning part may share an id. */
  private readonly trackers: Readonly<Record<TextKind, BlockTracker<string, OpenText>>>;
  /** The part the last delta went to: the next one is nearly always for it too. */
  last: OpenText | undefined;
  /** How the open parts are being ended: reported or not, their blocks closed or left open (endMessage). */
  private ending = { report: true, close: false };
  /** The part of each kind whose block is open in reconstruction (one per kind). */
  private readonly owners: Record<TextKind, OpenText | undefined> = { text: undefined, reasoning: undefined };

  constructor(
    private readonly host: MessageHost,
    private readonly onDiagnostic: DiagnosticSink,
  ) {
    const notStopped = (_id: string, block: OpenText, why: string): void => {
      const { report, close } = this.ending;
      if (report) this.reportNotStopped(block, why, close);
      if (close) this.close(block);
    };
    this.trackers = { text: createBlockTracker(notStopped), reasoning: createBlockTracker(notStopped) };
  }

  private reportNotStopped(block: OpenText, why: string, closes: boolean): void {
    this.onDiagnostic({
      rule: 'provider.block-not-stopped',
      message: `The ${block.kind} part ${block.id} started in event ${block.frame} got no end ${why}${closes ? '; a frontend keeps the part as it stands, and its block ends there' : ''}.`,
      at: block.at,
    });
  }

  start(kind: TextKind, id: string, what: string): OpenText {
    const { host } = this;
    host.ensure();
    const ctx = host.ctx;
    const info = TEXT_KINDS[kind];
    const open: OpenText = {
      kind,
      id,
      type: info.type,
      chunks: host.parts.startText(kind),
      deltaEvent: undefined,
      steppedOut: undefined,
      frame: ctx.frame.seq,
      at: ctx.at,
    };
    const previous = this.trackers[kind].start(id, open);
    if (previous?.steppedOut !== undefined) {
      // A frontend forgot that part at the finish-step: this is a new part, and the old one
      // stays as it stood there.
      this.reportNotStopped(previous, `before the finish-step in event ${previous.steppedOut}`, true);
      this.close(previous);
    } else if (previous)
      ctx.report(
        'provider.block-started-twice',
        `${what} in event ${ctx.frame.seq} starts ${kind} part ${id} again while the one started in event ${previous.frame} is open; the new part replaces it.`,
      );
    // The same part started again leaves its block open: reconstruction reports the replay.
    if (this.owners[kind] !== previous) this.closeOwnerBlock(kind);
    this.openBlock(
      open,
      { id },
      unified('stream.content_block_start', host.ids({ block_id: id }), { kind, channel: info.channel }),
    );
    return open;
  }

  delta(kind: TextKind, id: string, text: string, what: string, event: WireEvent): void {
    let open = this.find(kind, id);
    if (!open) {
      const ctx = this.host.ctx;
      if (this.trackers[kind].state(id) === 'stopped') {
        ctx.report(
          'provider.delta-after-stop',
          `${what} in event ${ctx.frame.seq} is for ${kind} part ${id}, which already ended; a frontend has no part to add it to. Kept as a provider event.`,
        );
        ctx.wire(what, event);
        return;
      }
      ctx.report(
        'provider.block-not-started',
        `${what} in event ${ctx.frame.seq} is for ${kind} part ${id}, which no ${TEXT_KINDS[kind].start} started (a frontend fails on it); its text is kept in a ${kind} part of its own.`,
      );
      open = this.start(kind, id, what);
    }
    this.stream(open, text);
  }

  /** A delta of an open text or reasoning part: streamed content, without a new object per event. */
  stream(open: OpenText, text: string): void {
    const { host } = this;
    const ctx = host.ctx;
    if (open.steppedOut !== undefined) this.afterStep(open, `${open.kind}-delta`, 'is for');
    // Another part of this kind has the open block: this part goes on in a block of its own.
    if (this.owners[open.kind] !== open) {
      this.closeOwnerBlock(open.kind);
      this.openBlock(open, { id: open.id, continued: true }, undefined);
    }
    host.clock?.token(ctx.frame.receivedAt);
    if (open.deltaEvent === undefined) {
      const info = TEXT_KINDS[open.kind];
      open.deltaEvent = unified('stream.content_block_delta', host.ids({ block_id: open.id }), {
        kind: info.delta,
        channel: info.channel,
      });
    }
    ctx.envelope(open.type, false, text, NO_EXTRAS, undefined, open.deltaEvent);
    open.chunks.push(text);
  }

  /** Whether the part is still open. */
  isOpen(open: OpenText): boolean {
    return this.trackers[open.kind].get(open.id) === open;
  }

  /** The open part of this kind and id, if there is one. */
  find(kind: TextKind, id: string): OpenText | undefined {
    const last = this.last;
    if (last !== undefined && last.id === id && last.kind === kind && this.isOpen(last)) return last;
    const open = this.trackers[kind].get(id);
    if (open) this.last = open;
    return open;
  }

  end(kind: TextKind, id: string, what: string, event: WireEvent): void {
    const tracker = this.trackers[kind];
    const state = tracker.state(id);
    const open = tracker.stop(id);
    if (!open) {
      const ctx = this.host.ctx;
      ctx.report(
        state === 'stopped' ? 'provider.delta-after-stop' : 'provider.block-not-started',
        `${what} in event ${ctx.frame.seq} ends ${kind} part ${id}, which ${state === 'stopped' ? 'already ended' : `no ${TEXT_KINDS[kind].start} started`}; kept as a provider event.`,
      );
      ctx.wire(what, event);
      return;
    }
    if (open.steppedOut !== undefined) this.afterStep(open, what, 'ends');
    this.close(open, (stop) => this.host.ctx.wire(what, event, stop));
  }

  /** A `finish-step`: a frontend forgets the parts open now (see the class comment). */
  finishStep(): void {
    const seq = this.host.ctx.frame.seq;
    const forget = (_id: string, open: OpenText): void => {
      open.steppedOut ??= seq;
    };
    this.trackers.text.forEachOpen(forget);
    this.trackers.reasoning.forEachOpen(forget);
  }

  /** A delta or end of a part a frontend forgot at a finish-step: it fails there; the part goes on here. */
  private afterStep(open: OpenText, what: string, verb: string): void {
    const ctx = this.host.ctx;
    ctx.report(
      'provider.delta-after-stop',
      `${what} in event ${ctx.frame.seq} ${verb} ${open.kind} part ${open.id}, which the finish-step in event ${open.steppedOut} ended for a frontend (useChat forgets the step's open parts there): a frontend fails on it. The text is kept in the part's block; later events of the part are not reported again.`,
    );
    open.steppedOut = undefined;
  }

  /**
   * The message is over: every part still open is reported as not ended (`why`: when that
   * became clear). `closes`: the message finished (or `[DONE]` ended the stream), and a
   * frontend keeps each part as it stands, so its block ends there; otherwise the stream was
   * cut, and the blocks stay open as it left them (reconstruction says they never ended).
   */
  endMessage(why: string, closes: boolean): void {
    this.endAll(why, { report: true, close: closes });
  }

  /** Ends the open parts without a finding: an error or an abort part said why they end. */
  endQuietly(): void {
    this.endAll('', { report: false, close: true });
  }

  private endAll(why: string, ending: { report: boolean; close: boolean }): void {
    this.ending = ending;
    this.trackers.text.endMessage(why);
    this.trackers.reasoning.endMessage(why);
    this.ending = { report: true, close: false };
    this.owners.text = undefined;
    this.owners.reasoning = undefined;
  }

  /**
   * The part ended: its block closes with the stop event, or, when another part's block was
   * opened since (its own block is closed already), the stop event is shown by `otherwise`.
   */
  private close(open: OpenText, otherwise?: (stop: UnifiedEvent) => void): void {
    open.chunks.seal();
    const stop = unified('stream.content_block_stop', this.host.ids({ block_id: open.id }), {
      kind: open.kind,
      channel: TEXT_KINDS[open.kind].channel,
    });
    if (this.owners[open.kind] === open) this.closeOwnerBlock(open.kind, stop);
    else otherwise?.(stop);
  }

  private openBlock(open: OpenText, extras: Record<string, unknown>, startEvent: UnifiedEvent | undefined): void {
    this.host.ctx.emit({ type: open.type, final: false, delta: '', extras, control: 'block-open' }, startEvent);
    this.owners[open.kind] = open;
  }

  /** The block open for this kind closes (`stop`: the event of its part's end, when that ends it). */
  private closeOwnerBlock(kind: TextKind, stop?: UnifiedEvent): void {
    if (this.owners[kind] === undefined) return;
    this.owners[kind] = undefined;
    this.host.ctx.emit({ type: TEXT_KINDS[kind].type, final: true, delta: '', extras: {} }, stop);
  }
}
