import type { DiagnosticLocation } from '../../diagnostics/types';
import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject, parseJson } from '../../json/values';
import { ProviderEventContext, type WireEvent } from '../provider/event-context';
import type { MessageSequence } from '../provider/message-sequence';
import { MessageClock } from '../provider/message-summary';
import type { DialectCallbacks } from '../types';
import type { MessageLane, RunEnding } from './message-lane';
import { optionalString } from './run-view';
import type { SharedState } from './shared-state';
import type { EndedCall, ToolCalls } from './tool-calls';
import { runUsage } from './usage';

/** The parts of a run that end with it. */
export interface RunParts {
  text: MessageLane;
  reasoning: MessageLane;
  tools: ToolCalls;
  state: SharedState;
}

/**
 * The runs of one AG-UI stream (docs/protocols/ag-ui.md, "Runs"): RUN_STARTED opens one,
 * RUN_FINISHED or RUN_ERROR closes it, and after that only a new RUN_STARTED (or a late
 * RUN_ERROR after RUN_FINISHED) may come. Each run is summed up in a `message` envelope (run
 * id, status, outcome, usage, time to first content); its steps and reasoning spans must
 * balance. The stream's end status comes from here: done at RUN_FINISHED, ended by error at
 * RUN_ERROR, truncated when the stream ends inside a run.
 */
export class RunLifecycle {
  private clock: MessageClock | undefined;
  private runId = '';
  /** How the last run closed, while no other one started. */
  private closed: { how: 'finished' | 'error'; frame: number } | undefined;
  /** An event outside a run was reported since the last run closed (one finding per stretch). */
  private outsideReported = false;
  /** The calls the last finished run left without a result: the frontend's to answer. */
  private pending: EndedCall[] = [];
  /** The names of the frontend's tools, when RUN_STARTED echoes its input's `tools`. */
  private frontendTools: ReadonlySet<string> | undefined;
  private readonly spans = new Map<string, { frame: number; at: DiagnosticLocation }>();

  constructor(
    private readonly callbacks: DialectCallbacks,
    private readonly runs: MessageSequence,
    private readonly parts: RunParts,
    private readonly onRun: (runId: string) => void,
  ) {}

  token(receivedAt: number): void {
    this.clock?.token(receivedAt);
  }

  /** Reports an event that arrives outside a run (once per stretch); it is decoded all the same. */
  checkInRun(ctx: ProviderEventContext, type: string): void {
    if (type === 'RUN_STARTED' || this.clock || this.outsideReported) return;
    // RUN_ERROR may open a stream (a run that failed before it began) or report a late failure after RUN_FINISHED.
    if (type === 'RUN_ERROR' && this.closed?.how !== 'error') return;
    this.outsideReported = true;
    const closed = this.closed;
    ctx.report(
      'ag-ui.event-outside-run',
      closed
        ? `${type} in event ${ctx.frame.seq} arrives after run ${this.runId || '(no runId)'} closed with ${closed.how === 'finished' ? 'RUN_FINISHED' : 'RUN_ERROR'} in event ${closed.frame}: a client rejects any event of a closed run but a new RUN_STARTED${closed.how === 'finished' ? ' or a late RUN_ERROR' : ''}. It is decoded all the same; later events before the next RUN_STARTED are not reported again.`
        : `${type} in event ${ctx.frame.seq} arrives before any RUN_STARTED: a stream opens with RUN_STARTED (or RUN_ERROR), so a client rejects it. It is decoded all the same; later events before a RUN_STARTED are not reported again.`,
    );
    // A client that rejects an event of a finished run fails the run there: the stream ends by
    // that error, not as the run had (nor "truncated" by a block the stray event opened). After
    // RUN_ERROR the stream has ended by its own error, which stays its reason; a capture that
    // begins inside a run is common, and stays a finding.
    if (closed?.how === 'finished')
      this.callbacks.onStreamEnd?.({
        event: type,
        error: `${type} came after RUN_FINISHED closed run ${this.runId || '(no runId)'} in event ${closed.frame}, and a client fails the run on it`,
      });
  }

  started(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const id = optionalString(event, 'runId') ?? '';
    const open = this.clock !== undefined;
    if (!this.runs.start(ctx, id, open)) {
      ctx.report(
        'provider.block-started-twice',
        `${type} in event ${ctx.frame.seq} starts run ${id} again while it is open; decoded as one run.`,
      );
      ctx.wire(type, event, unified('stream.message_start', { response_id: id }, { kind: 'run' }));
      return;
    }
    if (open) {
      this.endParts(ctx, 'cut', `before ${type} in event ${ctx.frame.seq} began the next run`);
      this.summarise(ctx, 'cut');
    }
    this.closed = undefined;
    this.outsideReported = false;
    this.pending = [];
    this.open(ctx, id);
    this.frontendTools = toolNamesOf(event['input']);
    if ('input' in event) this.parts.state.fromInput(event['input']);
    this.context(ctx).wire(type, event, unified('stream.message_start', { response_id: id }, { kind: 'run' }));
  }

  finished(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    if (!this.clock) {
      if (this.closed) {
        ctx.wire(type, event);
        return;
      }
      // The run's RUN_STARTED is not in the stream (a capture that begins inside the run).
      this.open(ctx, optionalString(event, 'runId') ?? '', 0);
    }
    const clock = this.clock as MessageClock;
    const unanswered = this.endParts(ctx, 'finished', `before ${type} (event ${ctx.frame.seq})`);
    const outcome = outcomeOf(event['outcome']);
    this.pending = this.awaitedOf(ctx, unanswered, outcome, pendingIdsOf(event['outcome']));
    clock.status = outcome === 'cancelled' ? 'cancelled' : outcome === 'interrupt' ? 'interrupted' : 'completed';
    clock.stopReason = outcome ?? 'success';
    if (outcome === 'interrupt') clock.interrupts = interruptsOf(event);
    this.addUsage(clock, event['usage']);
    this.runs.end(ctx);
    const end = this.context(ctx);
    end.wire(
      type,
      event,
      unified(
        'stream.message_stop',
        { response_id: this.runId },
        { phase: 'completed', stop_reason: clock.stopReason, usage: clock.usage },
      ),
    );
    this.summarise(end, clock.status);
    this.callbacks.onStreamEnd?.({ event: type });
    this.closed = { how: 'finished', frame: ctx.frame.seq };
    this.outsideReported = false;
  }

  failed(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    // The protocol names `message`; an `error` string some servers send instead is the message.
    const instead = optionalString(event, 'error');
    const message =
      optionalString(event, 'message') ??
      (instead === undefined ? 'no message given' : `${instead} (in error, where the protocol names message)`);
    const code = optionalString(event, 'code');
    const late = !this.clock && this.closed?.how === 'finished';
    if (this.clock) this.endParts(ctx, 'error', '');
    this.pending = [];
    const when = late
      ? ` after it had finished in event ${this.closed?.frame ?? 0} (a failure that surfaced later: the run counts as failed)`
      : !this.clock && !this.closed
        ? ' before any run started (the run failed before it began)'
        : '';
    ctx.report(
      'ag-ui.run-error',
      `Run ${this.runId || '(no runId)'} ended with RUN_ERROR${code ? ` (${code})` : ''}${when}: ${message}`,
    );
    const error = { message, ...(code !== undefined ? { code } : {}) };
    const end = this.context(ctx);
    end.emit(
      { type: KIND.error, final: true, delta: jsonText(error), extras: {} },
      unified('stream.error', { response_id: this.runId }, { error, phase: 'failed' }),
    );
    if (this.clock) {
      this.clock.error = error;
      this.addUsage(this.clock, event['usage']);
      this.summarise(end, 'failed');
    }
    this.runs.end(ctx);
    this.callbacks.onStreamEnd?.({ event: type, error: `${code ?? type}: ${message}` });
    this.closed = { how: 'error', frame: ctx.frame.seq };
    this.outsideReported = false;
  }

  /** STEP_* and REASONING_START/END (and the retired THINKING_START/END): spans that must balance. */
  span(
    ctx: ProviderEventContext,
    type: string,
    event: WireEvent,
    what: string,
    nameField: string | undefined,
    starting: boolean,
  ): void {
    const name = nameField === undefined ? '' : (optionalString(event, nameField) ?? '');
    const key = `${what}\u0000${name}`;
    const label = name === '' ? `the ${what}` : `${what} ${jsonText(name)}`;
    if (starting) {
      if (this.spans.has(key))
        ctx.report(
          'ag-ui.unbalanced',
          `${type} in event ${ctx.frame.seq} starts ${label} again while it is open (since event ${this.spans.get(key)?.frame ?? 0}).`,
        );
      this.spans.set(key, { frame: ctx.frame.seq, at: ctx.at });
    } else if (!this.spans.delete(key)) {
      ctx.report('ag-ui.unbalanced', `${type} in event ${ctx.frame.seq} finishes ${label}, which is not open.`);
    }
    ctx.wire(type, event, unified('stream.message_delta', { response_id: this.runId }, { kind: type.toLowerCase() }));
  }

  /** The leg's stream ended: a run still open was cut off; a finished run with unanswered calls waits for the frontend. */
  streamEnded(ctx: ProviderEventContext, events: number): void {
    if (this.clock || (events > 0 && !this.runs.ended)) {
      this.callbacks.onDiagnostic({
        rule: 'provider.missing-terminal',
        message: `The stream ended without RUN_FINISHED or RUN_ERROR${this.clock ? ` for run ${this.runId || '(no runId)'}` : ''}: the run was cut off or the connection dropped.`,
        at: { byteStart: ctx.frame.byteEnd },
      });
    }
    if (this.clock) {
      this.endParts(ctx, 'cut', 'before the stream ended');
      this.summarise(ctx, 'cut');
    }
    if (this.pending.length === 0 || this.closed?.how !== 'finished') return;
    ctx.emit(
      {
        type: KIND.awaiting_frontend_tools,
        final: true,
        delta: jsonText({
          tools: this.pending.map((call) => ({ tool_use_id: call.id, name: call.name, input: inputOf(call.args) })),
        }),
        extras: { run_id: this.runId },
      },
      unified('stream.tool_call_status', { response_id: this.runId }, { phase: 'requires_action' }),
    );
  }

  /**
   * Which of a finished run's unanswered calls wait for the frontend. A 1.0 success outcome
   * names them (`pendingToolCallIds`): those, and an id it names that the run left no
   * unanswered call of is reported. Without that list: where the input's `tools` are known,
   * the calls of those tools only (the agent's own tools run on the server); where they are
   * not, every call of a run that finished. A cancelled run asks for nothing, and an
   * interrupted one waits for a `resume` of its interrupts, not for tool messages.
   */
  private awaitedOf(
    ctx: ProviderEventContext,
    unanswered: EndedCall[],
    outcome: string | undefined,
    named: readonly string[] | undefined,
  ): EndedCall[] {
    if (outcome === 'cancelled') return [];
    if (named) {
      const left = new Set(unanswered.map((call) => call.id));
      for (const id of named.filter((id) => !left.has(id)))
        ctx.report(
          'ag-ui.pending-call-unknown',
          `RUN_FINISHED in event ${ctx.frame.seq} names call ${jsonText(id)} in pendingToolCallIds, but run ${this.runId || '(no runId)'} left no unanswered call of that id (never started in this run, or already answered): a client has nothing to run for it.`,
        );
      const pending = new Set(named);
      return unanswered.filter((call) => pending.has(call.id));
    }
    const tools = this.frontendTools;
    if (tools) return unanswered.filter((call) => tools.has(call.name));
    return outcome === 'interrupt' ? [] : unanswered;
  }

  private open(ctx: ProviderEventContext, id: string, startedAt = ctx.frame.receivedAt): void {
    this.runId = id;
    this.onRun(id);
    this.clock = new MessageClock(startedAt);
    this.clock.id = id;
  }

  private context(ctx: ProviderEventContext): ProviderEventContext {
    return new ProviderEventContext(ctx.frame, this.callbacks, this.runId);
  }

  /** Ends the run's messages, calls and spans; returns the calls a finished run left unanswered. */
  private endParts(ctx: ProviderEventContext, ending: RunEnding, why: string): EndedCall[] {
    const { text, reasoning, tools } = this.parts;
    text.endRun(ctx, ending, why);
    reasoning.endRun(ctx, ending, why);
    const unanswered = tools.endRun(ctx, ending, why);
    if (ending === 'finished')
      for (const [key, span] of this.spans) {
        const [what, name] = key.split('\u0000') as [string, string];
        this.callbacks.onDiagnostic({
          rule: 'ag-ui.unbalanced',
          message: `The ${what}${name === '' ? '' : ` ${jsonText(name)}`} started in event ${span.frame} is still open ${why}.`,
          at: span.at,
        });
      }
    this.spans.clear();
    return unanswered;
  }

  private addUsage(clock: MessageClock, usage: unknown): void {
    const summed = runUsage(usage);
    if (!summed) return;
    clock.addUsage(summed.usage);
    if (summed.model) clock.model = summed.model;
  }

  private summarise(ctx: ProviderEventContext, status: string): void {
    const clock = this.clock;
    if (!clock) return;
    clock.status = status;
    ctx.emit({
      type: KIND.message,
      final: true,
      delta: jsonText(clock.summary(ctx.frame.receivedAt)),
      // Not `id`: a capture may hold two runs of one id (a replayed thread), and a second
      // block with a completed block's id would read as content after its final envelope.
      extras: { run_id: clock.id },
    });
    this.clock = undefined;
  }
}

/** RUN_FINISHED's outcome: an object `{type}` (1.1), or the bare string earlier versions sent. */
function outcomeOf(outcome: unknown): string | undefined {
  if (typeof outcome === 'string') return outcome;
  return isJsonObject(outcome) && typeof outcome['type'] === 'string' ? outcome['type'] : undefined;
}

/** The calls a 1.0 success outcome names as waiting for the frontend; undefined when it names none. */
function pendingIdsOf(outcome: unknown): string[] | undefined {
  const ids = isJsonObject(outcome) ? outcome['pendingToolCallIds'] : undefined;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : undefined;
}

/** What an interrupted run waits on: 1.1's `outcome.interrupts`, or the draft's one `interrupt` beside the bare outcome. */
function interruptsOf(event: WireEvent): unknown {
  const outcome = event['outcome'];
  if (isJsonObject(outcome) && outcome['interrupts'] !== undefined) return outcome['interrupts'];
  return event['interrupt'] === undefined ? undefined : [event['interrupt']];
}

/** The names of the tools a RunAgentInput offers (`tools[].name`); undefined when it lists none. */
function toolNamesOf(input: unknown): ReadonlySet<string> | undefined {
  const tools = isJsonObject(input) ? input['tools'] : undefined;
  if (!Array.isArray(tools)) return undefined;
  const names = new Set<string>();
  for (const tool of tools as unknown[])
    if (isJsonObject(tool) && typeof tool['name'] === 'string') names.add(tool['name']);
  return names;
}

/** A call's arguments as the input the answer panel shows: parsed when they parse, the text when not. */
function inputOf(args: string): unknown {
  if (args.trim() === '') return {};
  const parsed = parseJson(args);
  return parsed.ok ? parsed.value : args;
}
