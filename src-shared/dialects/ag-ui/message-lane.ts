import type { RuleId } from '../../diagnostics/rules';
import type { DiagnosticLocation } from '../../diagnostics/types';
import { NO_EXTRAS } from '../../envelope/types';
import { unified, type ContentChannel, type DeltaKind, type UnifiedEvent } from '../../envelope/unified';
import type { EnvelopeKind } from '../../envelope/vocabulary';
import type { ProviderEventContext, WireEvent } from '../provider/event-context';
import { optionalString, type RunView } from './run-view';

/** How one lane names its messages and what they become. */
export interface LaneWords {
  /** `text message`, `reasoning message`: how findings name one. */
  what: string;
  envelope: EnvelopeKind;
  channel: ContentChannel;
  deltaKind: DeltaKind;
}

export type Report = (rule: RuleId, message: string, at: DiagnosticLocation) => void;

interface OpenMessage {
  at: DiagnosticLocation;
  frame: number;
  /** Opened by content that no start opened: already reported, its missing end is not reported again. */
  implied?: true;
  /** The unified form of the message's deltas, made at the first: its envelopes share it. */
  deltaEvent?: UnifiedEvent;
}

/** How a run ended for the messages still open in it. */
export type RunEnding = 'finished' | 'error' | 'cut';

/** The id a message without a `messageId` is kept under. */
const NO_ID = '(no messageId)';

/**
 * The messages of one lane (text, or reasoning) in one run: opened, extended and closed by
 * `messageId` (docs/protocols/ag-ui.md, "Messages"), or spelled as chunks. Messages may
 * interleave, but reconstruction keeps one open block per run and kind, so a delta for
 * another message than the one whose block is open closes that block there and opens a
 * continuation block for its own message: the text of two messages is never merged. A
 * message closed by its END may be reopened by a new START (the specification allows it);
 * its further text is a new block.
 */
export class MessageLane {
  private readonly open = new Map<string, OpenMessage>();
  private readonly ended = new Set<string>();
  /** The message whose block is open in reconstruction, and its state. */
  private owner: string | undefined;
  private ownerMessage: OpenMessage | undefined;
  /** The message a chunk stream is assembling (its END is synthesized when the stream closes). */
  private chunking: string | undefined;

  constructor(
    private readonly words: LaneWords,
    private readonly run: RunView,
    private readonly report: Report,
  ) {}

  start(ctx: ProviderEventContext, type: string, event: WireEvent, id: string): void {
    const startEvent = unified('stream.content_block_start', this.ids(id), {
      kind: this.words.envelope,
      channel: this.words.channel,
    });
    if (this.open.has(id)) {
      ctx.report(
        'provider.block-started-twice',
        `${type} in event ${ctx.frame.seq} starts ${this.words.what} ${id} again while it is open; what follows is appended to it.`,
      );
      ctx.wire(type, event, startEvent);
      return;
    }
    const reopened = this.ended.delete(id);
    this.open.set(id, { at: ctx.at, frame: ctx.frame.seq });
    this.openBlock(ctx, id, messageExtras(event, id, reopened), startEvent);
  }

  content(ctx: ProviderEventContext, type: string, event: WireEvent, id: string | undefined): void {
    const delta = event['delta'];
    if (typeof delta !== 'string') {
      ctx.report(
        'provider.invalid-event',
        `${type} in event ${ctx.frame.seq} has no string delta; kept as a provider event, nothing is added to ${this.words.what} ${id ?? NO_ID}.`,
      );
      ctx.wire(type, event);
      return;
    }
    this.append(ctx, type, id ?? NO_ID, delta, id === undefined ? 'has no messageId' : undefined);
  }

  /** A content event read without JSON.parse (CompactContent): its message id and delta string. */
  compactContent(ctx: ProviderEventContext, type: string, id: string, delta: string): void {
    this.append(ctx, type, id, delta, undefined);
  }

  end(ctx: ProviderEventContext, type: string, event: WireEvent, id: string): void {
    const stopEvent = unified('stream.content_block_stop', this.ids(id), {
      kind: this.words.envelope,
      channel: this.words.channel,
    });
    if (!this.open.has(id)) {
      const ended = this.ended.has(id);
      ctx.report(
        ended ? 'provider.delta-after-stop' : 'provider.block-not-started',
        `${type} in event ${ctx.frame.seq} ends ${this.words.what} ${id}, which ${ended ? 'already ended' : 'no start opened'}; it ends nothing.`,
      );
      ctx.wire(type, event, stopEvent);
      return;
    }
    this.close(ctx, id, stopEvent, () => ctx.wire(type, event, stopEvent));
  }

  /** A `*_CHUNK` event: the compact spelling, expanded into start, content and the end it implies. */
  chunk(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const id = optionalString(event, 'messageId');
    let opened = false;
    if (id !== undefined && id !== this.chunking && !this.open.has(id)) {
      this.closeChunk(ctx);
      this.ended.delete(id);
      this.open.set(id, { at: ctx.at, frame: ctx.frame.seq });
      this.chunking = id;
      this.openBlock(
        ctx,
        id,
        messageExtras(event, id, false),
        unified('stream.content_block_start', this.ids(id), { kind: this.words.envelope, channel: this.words.channel }),
      );
      opened = true;
    } else if (id === undefined && this.chunking === undefined) {
      this.report(
        'provider.block-not-started',
        `The first ${type} in event ${ctx.frame.seq} carries no messageId, so it opens no ${this.words.what}; its text is kept in a block of its own.`,
        ctx.at,
      );
      this.open.set(NO_ID, { at: ctx.at, frame: ctx.frame.seq, implied: true });
      this.chunking = NO_ID;
      this.openBlock(ctx, NO_ID, { message_id: NO_ID }, undefined);
      opened = true;
    }
    const delta = event['delta'];
    if (typeof delta === 'string' && delta !== '') {
      this.append(ctx, type, id ?? this.chunking ?? NO_ID, delta, undefined);
    } else if (delta !== undefined && typeof delta !== 'string') {
      ctx.report(
        'provider.invalid-event',
        `${type} in event ${ctx.frame.seq} has a delta that is no string; kept as a provider event.`,
      );
      ctx.wire(type, event);
    } else if (!opened) {
      // A continuation that carries no text (metadata only): shown as the event it is.
      ctx.wire(type, event);
    }
  }

  /** A chunk stream is assembling a message. */
  get chunkOpen(): boolean {
    return this.chunking !== undefined;
  }

  /** The open chunk stream can no longer continue (another item, a run event…): its END is synthesized here. */
  closeChunk(ctx: ProviderEventContext): void {
    const id = this.chunking;
    if (id === undefined) return;
    this.chunking = undefined;
    if (!this.open.has(id)) return;
    const stopEvent = unified('stream.content_block_stop', this.ids(id), {
      kind: this.words.envelope,
      channel: this.words.channel,
    });
    this.close(ctx, id, stopEvent, () => undefined);
  }

  /**
   * The run ended. A finished run must have closed its messages (each still open is reported
   * and closed where the run finished); a failed run ends them with it; a run cut short leaves
   * them open, as the stream did (reported, and reconstruction says they never ended).
   */
  endRun(ctx: ProviderEventContext, ending: RunEnding, why: string): void {
    if (ending !== 'cut') this.closeChunk(ctx);
    for (const [id, message] of this.open) {
      if (ending !== 'error' && !message.implied)
        this.report(
          'provider.block-not-stopped',
          `The ${this.words.what} ${id} started in event ${message.frame} got no end ${why}.`,
          message.at,
        );
      if (ending !== 'cut' && this.owner === id) this.closeBlock(ctx, undefined);
    }
    this.open.clear();
    this.ended.clear();
    this.owner = undefined;
    this.ownerMessage = undefined;
    this.chunking = undefined;
  }

  private ids(id: string): ReturnType<RunView['ids']> {
    return this.run.ids({ message_id: id, block_id: id });
  }

  /** Content for a message: kept whatever the message's state, in a block of its own when it is not open. */
  private append(ctx: ProviderEventContext, type: string, id: string, delta: string, why: string | undefined): void {
    // The open block's message is the one deltas come for nearly always: no lookup for it.
    let message = this.owner === id ? this.ownerMessage : this.open.get(id);
    if (!message) {
      const ended = this.ended.delete(id);
      const reason =
        why ??
        (ended
          ? `is for ${this.words.what} ${id}, which already ended`
          : `is for ${this.words.what} ${id}, which no start opened`);
      ctx.report(
        ended ? 'provider.delta-after-stop' : 'provider.block-not-started',
        `${type} in event ${ctx.frame.seq} ${reason}; its text is kept in a block of its own.`,
      );
      message = { at: ctx.at, frame: ctx.frame.seq, implied: true };
      this.open.set(id, message);
      this.openBlock(ctx, id, { message_id: id }, undefined);
    } else if (this.owner !== id) {
      // Another message's block is open: this message continues in a block of its own.
      this.openBlock(ctx, id, { message_id: id, continued: true }, undefined);
    }
    this.run.token(ctx.frame.receivedAt);
    message.deltaEvent ??= unified('stream.content_block_delta', this.ids(id), {
      kind: this.words.deltaKind,
      channel: this.words.channel,
    });
    ctx.envelope(this.words.envelope, false, delta, NO_EXTRAS, undefined, message.deltaEvent);
  }

  private openBlock(
    ctx: ProviderEventContext,
    id: string,
    extras: Record<string, unknown>,
    startEvent: UnifiedEvent | undefined,
  ): void {
    if (this.owner !== undefined && this.owner !== id) this.closeBlock(ctx, undefined);
    ctx.emit({ type: this.words.envelope, final: false, delta: '', extras, control: 'block-open' }, startEvent);
    this.owner = id;
    this.ownerMessage = this.open.get(id);
  }

  private closeBlock(ctx: ProviderEventContext, stopEvent: UnifiedEvent | undefined): void {
    ctx.emit({ type: this.words.envelope, final: true, delta: '', extras: {} }, stopEvent);
    this.owner = undefined;
    this.ownerMessage = undefined;
  }

  /** The message ended: its block closes with the stop event, or (split off already) the event is shown as it is. */
  private close(ctx: ProviderEventContext, id: string, stopEvent: UnifiedEvent, otherwise: () => void): void {
    this.open.delete(id);
    this.ended.add(id);
    if (this.owner === id) this.closeBlock(ctx, stopEvent);
    else otherwise();
  }
}

/** The extras of a message's opening envelope: its id, and its role and name where the event gives them. */
function messageExtras(event: WireEvent, id: string, reopened: boolean): Record<string, unknown> {
  const extras: Record<string, unknown> = { message_id: id };
  const role = optionalString(event, 'role');
  const name = optionalString(event, 'name');
  if (role !== undefined) extras['role'] = role;
  if (name !== undefined) extras['name'] = name;
  if (reopened) extras['reopened'] = true;
  return extras;
}
