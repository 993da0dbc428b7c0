import type { DiagnosticLocation } from '../../diagnostics/types';
import { unified, type UnifiedEvent } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';
import { checkToolArguments, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import type { Report, RunEnding } from './message-lane';
import { optionalString, type RunView } from './run-view';

interface OpenCall {
  id: string;
  name: string;
  parentMessageId: string | undefined;
  args: string[];
  at: DiagnosticLocation;
  frame: number;
  /** Opened by arguments that no start opened: already reported, its missing end is not reported again. */
  implied?: true;
  /**
   * The call's id already ended in this run (reopened by a new start, or arguments after its
   * end): its block goes without the id, which the first block holds with its result.
   */
  reopens?: true;
}

/** A tool call whose arguments are complete (its END came, or its chunk stream closed). */
export interface EndedCall {
  id: string;
  name: string;
  args: string;
}

/** The id a call without a `toolCallId` is kept under. */
const NO_ID = '(no toolCallId)';

/**
 * The tool calls of one run, by `toolCallId` (several may stream at once): arguments are
 * buffered until the call ends, then checked to parse and sent on as one tool call; results
 * become tool results linked by the id. At the run's end, the calls that got no result (in the
 * stream or in a MESSAGES_SNAPSHOT) are the ones the frontend must answer.
 */
export class ToolCalls {
  private readonly open = new Map<string, OpenCall>();
  private readonly ended = new Map<string, EndedCall>();
  private readonly answered = new Set<string>();
  private chunking: string | undefined;

  constructor(
    private readonly run: RunView,
    private readonly report: Report,
  ) {}

  start(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const id = optionalString(event, 'toolCallId');
    const name = optionalString(event, 'toolCallName') ?? '';
    if (id === undefined) {
      ctx.report(
        'provider.block-not-started',
        `${type} in event ${ctx.frame.seq} has no toolCallId, so no later event can address the call; kept as a provider event.`,
      );
      ctx.wire(type, event);
      return;
    }
    if (this.open.has(id)) {
      ctx.report(
        'provider.block-started-twice',
        `${type} in event ${ctx.frame.seq} starts tool call ${id} again while it is open; its arguments go on.`,
      );
      ctx.wire(type, event);
      return;
    }
    this.openCall(ctx, id, name, event);
    ctx.wire(type, event, this.startEvent(id, name, event));
  }

  args(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const id = optionalString(event, 'toolCallId') ?? NO_ID;
    const delta = event['delta'];
    if (typeof delta !== 'string') {
      ctx.report(
        'provider.invalid-event',
        `${type} in event ${ctx.frame.seq} has no string delta; kept as a provider event, nothing is added to tool call ${id}.`,
      );
      ctx.wire(type, event);
      return;
    }
    let call = this.open.get(id);
    if (!call) {
      const ended = this.ended.has(id);
      ctx.report(
        ended ? 'provider.delta-after-stop' : 'provider.block-not-started',
        `${type} in event ${ctx.frame.seq} is for tool call ${id}, which ${ended ? 'already ended' : 'no TOOL_CALL_START opened'}; its arguments are kept in a call of its own.`,
      );
      call = this.openCall(ctx, id, '', event, ended ? 'apart' : undefined);
      call.implied = true;
    }
    this.addArgs(ctx, call, delta);
    ctx.wire(type, event, this.inputEvent(call), delta);
  }

  end(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const id = optionalString(event, 'toolCallId') ?? NO_ID;
    const call = this.open.get(id);
    if (!call) {
      const ended = this.ended.has(id);
      ctx.report(
        ended ? 'provider.delta-after-stop' : 'provider.block-not-started',
        `${type} in event ${ctx.frame.seq} ends tool call ${id}, which ${ended ? 'already ended' : 'no TOOL_CALL_START opened'}; it ends nothing.`,
      );
      ctx.wire(type, event);
      return;
    }
    this.finish(ctx, call);
  }

  /** TOOL_CALL_CHUNK: the first chunk of a call carries its id and name, later ones its arguments. */
  chunk(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const id = optionalString(event, 'toolCallId');
    let opened: OpenCall | undefined;
    if (id !== undefined && id !== this.chunking && !this.open.has(id)) {
      this.closeChunk(ctx);
      const name = optionalString(event, 'toolCallName');
      if (name === undefined)
        ctx.report(
          'provider.block-not-started',
          `The first ${type} of tool call ${id} (event ${ctx.frame.seq}) carries no toolCallName; the call is kept unnamed.`,
        );
      opened = this.openCall(ctx, id, name ?? '', event);
      this.chunking = id;
    } else if (id === undefined && this.chunking === undefined) {
      ctx.report(
        'provider.block-not-started',
        `The first ${type} in event ${ctx.frame.seq} carries no toolCallId, so it opens no call; its arguments are kept in a call of its own.`,
      );
      opened = this.openCall(ctx, NO_ID, optionalString(event, 'toolCallName') ?? '', event);
      this.chunking = NO_ID;
    }
    const call = opened ?? this.open.get(id ?? this.chunking ?? NO_ID);
    const delta = event['delta'];
    const args = call && typeof delta === 'string' ? delta : '';
    if (call && typeof delta === 'string') this.addArgs(ctx, call, delta);
    ctx.wire(
      type,
      event,
      opened ? this.startEvent(opened.id, opened.name, event) : call ? this.inputEvent(call) : undefined,
      args,
    );
  }

  /** A chunk stream is assembling a call. */
  get chunkOpen(): boolean {
    return this.chunking !== undefined;
  }

  /** The open chunk stream can no longer continue: the call ends here, as a TOOL_CALL_END would end it. */
  closeChunk(ctx: ProviderEventContext): void {
    const id = this.chunking;
    if (id === undefined) return;
    this.chunking = undefined;
    const call = this.open.get(id);
    if (call) this.finish(ctx, call);
  }

  result(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const id = optionalString(event, 'toolCallId');
    if (id !== undefined) this.answered.add(id);
    this.emitResult(ctx, type, id, contentOf(ctx, type, event), optionalString(event, 'messageId'));
  }

  /**
   * A MESSAGES_SNAPSHOT's tool messages answer the calls they name. One that answers a call of
   * this run no TOOL_CALL_RESULT answered is that call's result (an agent may send its results
   * only in snapshots): it is shown as one, after the snapshot, once.
   */
  answeredBy(ctx: ProviderEventContext, type: string, messages: unknown): void {
    if (!Array.isArray(messages)) return;
    for (const message of messages as unknown[]) {
      if (!isJsonObject(message) || message['role'] !== 'tool' || typeof message['toolCallId'] !== 'string') continue;
      const id = message['toolCallId'];
      if (this.answered.has(id)) continue;
      this.answered.add(id);
      if (this.open.has(id) || this.ended.has(id))
        this.emitResult(ctx, type, id, message['content'], optionalString(message, 'id'));
    }
  }

  private emitResult(
    ctx: ProviderEventContext,
    type: string,
    id: string | undefined,
    content: unknown,
    messageId: string | undefined,
  ): void {
    const name = id === undefined ? undefined : (this.open.get(id)?.name ?? this.ended.get(id)?.name);
    ctx.emit(
      {
        type: KIND.tool_result,
        final: true,
        delta: typeof content === 'string' ? content : jsonText(content ?? ''),
        extras: {
          ...(id !== undefined ? { id } : {}),
          ...(name ? { name } : {}),
          ...(messageId !== undefined ? { message_id: messageId } : {}),
        },
      },
      unified('stream.tool_call_result', this.run.ids({ tool_call_id: id, message_id: messageId }), {
        kind: type.toLowerCase(),
        phase: 'completed',
      }),
    );
  }

  /**
   * The run ended: a finished run's calls still open are reported and end there; a failed or
   * cut run's stay incomplete (their arguments are in its events). Returns the calls of a
   * finished run that got no result: those the frontend runs.
   */
  endRun(ctx: ProviderEventContext, ending: RunEnding, why: string): EndedCall[] {
    if (ending === 'finished') this.closeChunk(ctx);
    for (const call of this.open.values()) {
      if (ending === 'error') continue;
      if (!call.implied)
        this.report(
          'provider.block-not-stopped',
          `Tool call ${call.id} (${call.name || 'unnamed'}) started in event ${call.frame} got no TOOL_CALL_END ${why}.`,
          call.at,
        );
      if (ending === 'finished') this.finish(ctx, call);
    }
    const unanswered =
      ending === 'finished' ? [...this.ended.values()].filter((call) => !this.answered.has(call.id)) : [];
    this.open.clear();
    this.ended.clear();
    this.answered.clear();
    this.chunking = undefined;
    return unanswered;
  }

  /**
   * A call opens. One whose id already ended is reopened: by a start, its arguments go on from
   * what they were (the specification allows it); by stray arguments (`apart`), they are kept
   * apart from the ended call's.
   */
  private openCall(
    ctx: ProviderEventContext,
    id: string,
    name: string,
    event: WireEvent,
    reopening: 'continue' | 'apart' = 'continue',
  ): OpenCall {
    const previous = this.ended.get(id);
    this.ended.delete(id);
    const call: OpenCall = {
      id,
      name: name || previous?.name || '',
      parentMessageId: optionalString(event, 'parentMessageId'),
      args: previous && reopening === 'continue' && previous.args !== '' ? [previous.args] : [],
      at: ctx.at,
      frame: ctx.frame.seq,
      ...(previous ? { reopens: true as const } : {}),
    };
    this.open.set(id, call);
    return call;
  }

  private addArgs(ctx: ProviderEventContext, call: OpenCall, delta: string): void {
    call.args.push(delta);
    this.run.token(ctx.frame.receivedAt);
  }

  private finish(ctx: ProviderEventContext, call: OpenCall): void {
    this.open.delete(call.id);
    const args = call.args.join('');
    this.ended.set(call.id, { id: call.id, name: call.name, args });
    checkToolArguments(ctx, args, `Tool call ${call.id} (${call.name || 'unnamed'})`);
    // Built field by field, not by spreading objects of varying shapes (V8's slow generic clone).
    const extras: Record<string, unknown> = call.reopens
      ? { reopens: call.id, name: call.name }
      : { id: call.id, name: call.name };
    if (call.parentMessageId !== undefined) extras['parent_message_id'] = call.parentMessageId;
    ctx.emit(
      { type: KIND.tool_call, final: true, delta: args.trim() === '' ? '{}' : args, extras },
      unified('stream.tool_call_stop', this.callIds(call.id, call.parentMessageId), {
        kind: KIND.tool_call,
        phase: 'completed',
      }),
    );
  }

  private callIds(id: string, parentMessageId: string | undefined): ReturnType<RunView['ids']> {
    return this.run.ids({ tool_call_id: id, message_id: parentMessageId });
  }

  private startEvent(id: string, name: string, event: WireEvent): UnifiedEvent {
    return unified('stream.tool_call_start', this.callIds(id, optionalString(event, 'parentMessageId')), {
      kind: KIND.tool_call,
      tool: { kind: 'client', name },
    });
  }

  private inputEvent(call: OpenCall): UnifiedEvent {
    return unified('stream.tool_call_input.delta', this.callIds(call.id, call.parentMessageId), {
      kind: 'input_json_delta',
    });
  }
}

/**
 * A TOOL_CALL_RESULT's `content`, which the protocol requires. Without it the result is
 * reported, and a `result` field (which some servers send instead) is shown in its place.
 */
function contentOf(ctx: ProviderEventContext, type: string, event: WireEvent): unknown {
  if (event['content'] !== undefined) return event['content'];
  const instead = event['result'];
  ctx.report(
    'provider.invalid-event',
    `${type} in event ${ctx.frame.seq} has no content, where a client reads the result${instead !== undefined ? '; its result field is shown as the result' : '; the result is empty'}.`,
  );
  return instead;
}
