import type { DiagnosticSink } from '../../diagnostics/types';
import { unified, type StreamIds, type UnifiedEvent, type UnifiedTool } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { parseJson } from '../../json/values';
import { createBlockTracker, type BlockTracker, type StartedBlock } from '../block-tracker';
import { checkToolArguments, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import type { MessageClock } from '../provider/message-summary';
import type { AssistantParts, ToolPart } from './assistant-parts';

/**
 * The tool calls of one AI SDK message: input streamed and made available, outputs and errors,
 * and which calls the frontend must answer when the message finishes (a call with its input and
 * no output that the provider did not run itself: the frontend's `addToolResult`).
 */

/** What the tool calls and text parts need of their message. */
export interface MessageHost {
  readonly ctx: ProviderEventContext;
  /** The message id its envelopes name ('' until one is given). */
  readonly messageId: string;
  readonly clock: MessageClock | undefined;
  readonly parts: AssistantParts;
  ids(extra?: StreamIds): StreamIds;
  ensure(): void;
}

export interface ToolFlags {
  /** The provider ran the tool (its result comes in the stream, never from the frontend). */
  providerExecuted: boolean;
  dynamic: boolean;
}

interface TrackedCall extends StartedBlock {
  part: ToolPart;
  /** Streamed input text, joined when the input is available. */
  input: string[];
  /** The unified form of its input deltas, made at the first and shared by the rest (rebuilt if the message id changed since). */
  deltaEvent: UnifiedEvent | undefined;
  /** Its input was unusable (tool-input-error): the error is already its result. */
  inputFailed: boolean;
}

export class ToolCalls {
  /** This message's calls by id, in the order they started. */
  private calls = new Map<string, TrackedCall>();
  /** Calls whose input is streaming. */
  private readonly streaming: BlockTracker<string, TrackedCall>;
  /** The message's calls still streaming are being ended by its finish (or [DONE]): their blocks are made. */
  private closing = false;

  constructor(
    private readonly host: MessageHost,
    private readonly onDiagnostic: DiagnosticSink,
  ) {
    this.streaming = createBlockTracker<string, TrackedCall>((id, call, why) => {
      this.reportUnavailable(id, call, why, this.closing);
      if (this.closing) this.emitStreamed(call);
    });
  }

  private reportUnavailable(id: string, call: TrackedCall, why: string, kept: boolean): void {
    this.onDiagnostic({
      rule: 'provider.block-not-stopped',
      message: `The input of tool call ${id} (${call.part.name || 'unnamed'}) started streaming in event ${call.frame} and was never made available ${why}${kept ? '; its block holds the input streamed so far' : ''}.`,
      at: call.at,
    });
  }

  private get startWord(): string {
    return this.host.parts.wire === 'ui' ? 'tool-input-start' : 'tool_call_streaming_start';
  }

  private track(id: string, name: string, flags: ToolFlags): TrackedCall {
    const { ctx, parts } = this.host;
    const call: TrackedCall = {
      // The flags field by field: a spread of them is V8's slow generic copy, once per call.
      part: {
        id,
        name,
        providerExecuted: flags.providerExecuted,
        dynamic: flags.dynamic,
        state: 'input-streaming',
        input: undefined,
        step: parts.currentStep(),
      },
      input: [],
      deltaEvent: undefined,
      inputFailed: false,
      frame: ctx.frame.seq,
      at: ctx.at,
    };
    this.calls.set(id, call);
    parts.tool(call.part);
    return call;
  }

  start(id: string, name: string, flags: ToolFlags, what: string, event: WireEvent): void {
    const { ctx } = this.host;
    this.host.ensure();
    const previous = this.calls.get(id);
    if (previous)
      ctx.report(
        'provider.block-started-twice',
        `${what} in event ${ctx.frame.seq} starts tool call ${id} again (it started in event ${previous.frame}); the new call replaces it.`,
      );
    this.streaming.start(id, this.track(id, name, flags));
    ctx.wire(what, event, unified('stream.tool_call_start', this.ids(id), { kind: what, tool: toolOf(name, flags) }));
  }

  delta(id: string, text: string, what: string, event: WireEvent): void {
    const { ctx } = this.host;
    const call = this.streaming.get(id);
    if (!call) {
      const known = this.calls.has(id);
      ctx.report(
        known ? 'provider.delta-after-stop' : 'provider.block-not-started',
        `${what} in event ${ctx.frame.seq} is for tool call ${id}, ${known ? 'whose input was already available' : `which no ${this.startWord} started`}; kept as a provider event.`,
      );
      ctx.wire(what, event);
      return;
    }
    call.input.push(text);
    this.host.clock?.token(ctx.frame.receivedAt);
    let deltaEvent = call.deltaEvent;
    // Its ids name the message (compact: an empty id is left out), which a late start part may name after the call began.
    if (deltaEvent === undefined || (deltaEvent.ids.message_id ?? '') !== this.host.messageId)
      deltaEvent = call.deltaEvent = unified('stream.tool_call_input.delta', this.ids(id), {
        kind: 'input_json_delta',
      });
    ctx.wire(what, event, deltaEvent, text);
  }

  /** The call's input is complete: the call's block, its streamed text checked to parse. */
  available(id: string, name: string, input: unknown, flags: ToolFlags, what: string): void {
    const call = this.complete(id, name, flags, what);
    call.part.state = 'input-available';
    call.part.input = input;
    this.emitCall(
      call,
      jsonText(input ?? {}),
      unified('stream.tool_call_stop', this.ids(id), { kind: what, phase: 'completed' }),
    );
  }

  /** The server could not use the call's input: the call, and its error as the result a frontend shows. */
  inputError(id: string, name: string, input: unknown, errorText: string, flags: ToolFlags, what: string): void {
    const call = this.complete(id, name, flags, what);
    const { ctx } = this.host;
    ctx.report(
      'ai-sdk.tool-input-error',
      `Tool call ${id} (${name || 'unnamed'}) has input the server could not use, so the tool did not run: ${errorText}`,
    );
    call.part.state = 'output-error';
    call.part.input = input;
    call.part.errorText = errorText;
    call.inputFailed = true;
    this.emitCall(
      call,
      // Input the SDK could not parse comes as the text it is.
      typeof input === 'string' ? input : jsonText(input ?? {}),
      unified('stream.tool_call_stop', this.ids(id), { kind: what, phase: 'failed', error: errorText }),
    );
    ctx.emit({ type: KIND.tool_result, final: true, delta: errorText, extras: { id, name, is_error: true } });
  }

  /** The call as complete as its input part makes it (started or not: a call may come whole). */
  private complete(id: string, name: string, flags: ToolFlags, what: string): TrackedCall {
    const { ctx } = this.host;
    this.host.ensure();
    this.streaming.stop(id);
    let call = this.calls.get(id);
    if (call && call.part.state !== 'input-streaming')
      ctx.report(
        'provider.block-started-twice',
        `${what} in event ${ctx.frame.seq} gives tool call ${id} its input again (it was complete in an earlier event); the later one counts.`,
      );
    call ??= this.track(id, name, flags);
    if (name !== '') call.part.name = name;
    call.part.providerExecuted ||= flags.providerExecuted;
    const streamed = call.input.join('');
    checkToolArguments(ctx, streamed, `Tool call ${id} (${call.part.name || 'unnamed'})`);
    return call;
  }

  /** The call's block, holding its input (`delta`). */
  private emitCall(call: TrackedCall, delta: string, event?: UnifiedEvent): void {
    const { id, name, providerExecuted } = call.part;
    this.host.ctx.emit(
      { type: providerExecuted ? KIND.server_tool_call : KIND.tool_call, final: true, delta, extras: { id, name } },
      event,
    );
  }

  /**
   * A call whose input was never made available, though its output came or its message ended:
   * its block holds the input streamed so far, as a frontend's tool part does (parsed when it
   * parses; otherwise the text as it came, nothing dropped). No stop event: the wire sent none.
   */
  private emitStreamed(call: TrackedCall): void {
    const text = call.input.join('');
    const parsed = text.trim() === '' ? undefined : parseJson(text);
    if (parsed?.ok === true) call.part.input = parsed.value;
    this.emitCall(call, parsed === undefined || parsed.ok ? jsonText(call.part.input ?? {}) : text);
  }

  /**
   * The call an output (or its error) is for. One whose input is still streaming gets its
   * output all the same (the SDK's frontend applies it to the call's part): its block is made
   * first, with the input streamed so far, and its missing tool-input-available reported.
   */
  private answered(id: string, what: string): TrackedCall | undefined {
    const streaming = this.streaming.stop(id);
    if (streaming) {
      this.reportUnavailable(id, streaming, `before ${what} (event ${this.host.ctx.frame.seq}) gave its output`, true);
      this.emitStreamed(streaming);
    }
    return this.calls.get(id);
  }

  /** A tool's output (the last one, or a preliminary one shown as an event). */
  output(
    id: string,
    output: unknown,
    providerExecuted: boolean,
    preliminary: boolean,
    what: string,
    event: WireEvent,
  ): void {
    const { ctx } = this.host;
    this.host.ensure();
    const call = this.answered(id, what);
    if (preliminary) {
      ctx.wire(what, event, unified('stream.tool_call_result', this.ids(id), { kind: what, phase: 'preliminary' }));
      return;
    }
    if (call) {
      call.part.state = 'output-available';
      call.part.output = output;
    }
    const server = providerExecuted || call?.part.providerExecuted === true;
    ctx.emit(
      {
        type: server ? KIND.server_tool_result : KIND.tool_result,
        final: true,
        delta: typeof output === 'string' ? output : jsonText(output ?? null),
        extras: { id, name: call?.part.name ?? '' },
      },
      unified('stream.tool_call_result', this.ids(id), { kind: what, phase: 'completed' }),
    );
  }

  /**
   * The tool failed when it ran, or its call was denied: the error is its result, the
   * provider's (a server tool result) when the provider ran the tool.
   */
  outputError(
    id: string,
    errorText: string,
    denied: boolean,
    providerExecuted: boolean,
    what: string,
    event: WireEvent,
  ): void {
    const { ctx } = this.host;
    this.host.ensure();
    const call = this.answered(id, what);
    if (call?.inputFailed === true && !denied) {
      // streamText follows a tool-input-error with the same error as tool-output-error: the tool
      // never ran, and the call already has its error as its result; a frontend keeps one part.
      call.part.errorText = errorText;
      const phase = { kind: what, phase: 'failed', error: errorText } as const;
      return ctx.wire(what, event, unified('stream.tool_call_result', this.ids(id), phase));
    }
    if (!denied)
      ctx.report(
        'ai-sdk.tool-output-error',
        `Tool call ${id} (${call?.part.name || 'unnamed'}) failed when the tool ran: ${errorText}`,
      );
    if (call) {
      call.part.state = 'output-error';
      call.part.errorText = errorText;
    }
    const server = providerExecuted || call?.part.providerExecuted === true;
    ctx.emit(
      {
        type: server ? KIND.server_tool_result : KIND.tool_result,
        final: true,
        delta: errorText,
        extras: { id, name: call?.part.name ?? '', is_error: true, ...(denied ? { denied: true } : {}) },
      },
      unified('stream.tool_call_result', this.ids(id), {
        kind: what,
        phase: denied ? 'canceled' : 'failed',
        error: errorText,
      }),
    );
  }

  /**
   * The frontend is asked to approve the call (`addToolApprovalResponse`), not to run it: the
   * call waits for the approval, whoever runs it then.
   */
  approval(id: string, approvalId: string, what: string, event: WireEvent): void {
    const call = this.calls.get(id);
    if (call) call.part.approval = approvalId;
    this.host.ctx.wire(
      what,
      event,
      unified('stream.tool_call_status', this.ids(id), { kind: what, phase: 'approval_requested' }),
    );
  }

  /**
   * The message finished: the calls the frontend must answer make the pause, with the message
   * so far. Those are the calls with their input and no output that the provider did not run
   * (the frontend runs them: `addToolResult`) and the calls waiting for an approval (the
   * frontend approves or denies them: `addToolApprovalResponse`).
   */
  emitPause(message: () => Record<string, unknown>): void {
    const pending = [...this.calls.values()].filter(
      ({ part }) => part.state === 'input-available' && (part.approval !== undefined || !part.providerExecuted),
    );
    this.calls = new Map();
    if (pending.length === 0) return;
    this.host.ctx.emit({
      type: KIND.awaiting_frontend_tools,
      final: true,
      delta: jsonText({
        tools: pending.map(({ part }) => ({
          tool_use_id: part.id,
          name: part.name,
          input: part.input ?? {},
          ...(part.approval !== undefined ? { approval_id: part.approval } : {}),
        })),
        wire: this.host.parts.wire,
        message: message(),
      }),
      extras: {},
    });
  }

  /**
   * The message is over: the calls whose input is still streaming are reported; `closes` (the
   * message finished, or [DONE] ended the stream) makes their blocks with the input so far.
   */
  endMessage(why: string, closes: boolean): void {
    this.closing = closes;
    this.streaming.endMessage(why);
    this.closing = false;
  }

  discardMessage(): void {
    this.streaming.discardMessage();
    this.calls = new Map();
  }

  private ids(id: string): StreamIds {
    return this.host.ids({ tool_call_id: id });
  }
}

function toolOf(name: string, flags: ToolFlags): UnifiedTool {
  return { kind: flags.providerExecuted ? 'server' : 'client', name };
}
