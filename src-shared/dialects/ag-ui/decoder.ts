import { unified, type StreamIds } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import type { Frame } from '../../sse/types';
import { ProviderEventContext, readWireEvent, type WireEvent } from '../provider/event-context';
import { MessageSequence } from '../provider/message-sequence';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import { CompactContent } from './compact-content';
import { MessageLane, type Report } from './message-lane';
import { RunLifecycle } from './run-lifecycle';
import { optionalString, type RunView } from './run-view';
import { SharedState } from './shared-state';
import { ToolCalls } from './tool-calls';
import { AG_UI_EVENT_TYPES, KEEPS_CHUNKS_OPEN, misspelledType } from './vocabulary';

/** Events a message lane, a tool call or the state handles, by type. */
type Handler = (ctx: ProviderEventContext, type: string, event: WireEvent) => void;

/**
 * AG-UI events over SSE (docs/protocols/ag-ui.md): data-only JSON events named by their
 * `type`, one run or several per stream, each closed by RUN_FINISHED or RUN_ERROR. Text and
 * reasoning messages become streamed text and thinking envelopes, tool calls one call
 * envelope each once their arguments are complete (checked to parse), tool results results
 * linked by id, and the shared state a `state` envelope after every snapshot or delta; every
 * other event is shown as a provider event. The agent of every envelope is the run id, and a
 * `message` envelope sums each run up. A run that finishes with tool calls no result answered
 * waits for the frontend: an `awaiting_frontend_tools` envelope says so when the stream ends.
 */
export function createAgUiDecoder(callbacks: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  const report: Report = (rule, message, at) => callbacks.onDiagnostic({ rule, message, at });
  const runs = new MessageSequence(callbacks, {
    message: 'run',
    start: 'RUN_STARTED',
    terminal: 'RUN_FINISHED or RUN_ERROR',
  });
  let runId = '';
  const view: RunView = {
    ids: (extra: StreamIds = {}) => ({ response_id: runId, ...extra }),
    token: (receivedAt) => lifecycle.token(receivedAt),
  };
  const text = new MessageLane(
    { what: 'text message', envelope: KIND.text, channel: 'output_text', deltaKind: 'text_delta' },
    view,
    report,
  );
  const reasoning = new MessageLane(
    { what: 'reasoning message', envelope: KIND.thinking, channel: 'reasoning', deltaKind: 'reasoning_delta' },
    view,
    report,
  );
  const tools = new ToolCalls(view, report);
  const state = new SharedState(view);
  const lifecycle = new RunLifecycle(callbacks, runs, { text, reasoning, tools, state }, (id) => (runId = id));
  const unknownReported = new Set<string>();
  let eventContext: ProviderEventContext | undefined;
  const compact = new CompactContent(options.readShapes !== false);
  let lastFrame: Frame | undefined;
  let events = 0;

  const messageId = (event: WireEvent): string => optionalString(event, 'messageId') ?? '(no messageId)';
  /** The retired THINKING_TEXT_MESSAGE_* events carry no id: one reasoning message at a time. */
  const THINKING = '(thinking)';

  const HANDLERS: Readonly<Record<string, Handler>> = {
    TEXT_MESSAGE_START: (ctx, type, event) => text.start(ctx, type, event, messageId(event)),
    TEXT_MESSAGE_CONTENT: (ctx, type, event) => text.content(ctx, type, event, optionalString(event, 'messageId')),
    TEXT_MESSAGE_END: (ctx, type, event) => text.end(ctx, type, event, messageId(event)),
    TEXT_MESSAGE_CHUNK: (ctx, type, event) => text.chunk(ctx, type, event),
    REASONING_MESSAGE_START: (ctx, type, event) => reasoning.start(ctx, type, event, messageId(event)),
    REASONING_MESSAGE_CONTENT: (ctx, type, event) =>
      reasoning.content(ctx, type, event, optionalString(event, 'messageId')),
    REASONING_MESSAGE_END: (ctx, type, event) => reasoning.end(ctx, type, event, messageId(event)),
    REASONING_MESSAGE_CHUNK: (ctx, type, event) => reasoning.chunk(ctx, type, event),
    THINKING_TEXT_MESSAGE_START: (ctx, type, event) => reasoning.start(ctx, type, event, THINKING),
    THINKING_TEXT_MESSAGE_CONTENT: (ctx, type, event) => reasoning.content(ctx, type, event, THINKING),
    THINKING_TEXT_MESSAGE_END: (ctx, type, event) => reasoning.end(ctx, type, event, THINKING),
    TOOL_CALL_START: (ctx, type, event) => tools.start(ctx, type, event),
    TOOL_CALL_ARGS: (ctx, type, event) => tools.args(ctx, type, event),
    TOOL_CALL_END: (ctx, type, event) => tools.end(ctx, type, event),
    TOOL_CALL_CHUNK: (ctx, type, event) => tools.chunk(ctx, type, event),
    TOOL_CALL_RESULT: (ctx, type, event) => tools.result(ctx, type, event),
    STATE_SNAPSHOT: (ctx, type, event) => state.snapshot(ctx, type, event),
    STATE_DELTA: (ctx, type, event) => state.delta(ctx, type, event),
    MESSAGES_SNAPSHOT: (ctx, type, event) => {
      passThrough(ctx, type, event);
      tools.answeredBy(ctx, type, event['messages']);
    },
    RUN_STARTED: (ctx, type, event) => lifecycle.started(ctx, type, event),
    RUN_FINISHED: (ctx, type, event) => lifecycle.finished(ctx, type, event),
    RUN_ERROR: (ctx, type, event) => lifecycle.failed(ctx, type, event),
    STEP_STARTED: (ctx, type, event) => lifecycle.span(ctx, type, event, 'step', 'stepName', true),
    STEP_FINISHED: (ctx, type, event) => lifecycle.span(ctx, type, event, 'step', 'stepName', false),
    REASONING_START: (ctx, type, event) => lifecycle.span(ctx, type, event, 'reasoning span', 'messageId', true),
    REASONING_END: (ctx, type, event) => lifecycle.span(ctx, type, event, 'reasoning span', 'messageId', false),
    THINKING_START: (ctx, type, event) => lifecycle.span(ctx, type, event, 'thinking span', undefined, true),
    THINKING_END: (ctx, type, event) => lifecycle.span(ctx, type, event, 'thinking span', undefined, false),
  };

  /** RAW, CUSTOM, activity, subagent and encrypted-reasoning events: shown as they are, with their unified form. */
  function passThrough(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    ctx.wire(
      type,
      event,
      type === 'REASONING_ENCRYPTED_VALUE'
        ? unified('stream.content_block_delta', view.ids({ message_id: optionalString(event, 'entityId') }), {
            kind: 'signature_delta',
            channel: 'reasoning',
          })
        : unified('stream.message_delta', view.ids(), { kind: type.toLowerCase() }),
    );
  }

  /** A chunk stream ends at any event but its own continuation chunks and the few that stand aside. */
  function closeChunks(ctx: ProviderEventContext, type: string): void {
    // Nearly always none is open: no lookup then.
    if ((!text.chunkOpen && !reasoning.chunkOpen && !tools.chunkOpen) || KEEPS_CHUNKS_OPEN.has(type)) return;
    if (type !== 'TEXT_MESSAGE_CHUNK') text.closeChunk(ctx);
    if (type !== 'REASONING_MESSAGE_CHUNK') reasoning.closeChunk(ctx);
    if (type !== 'TOOL_CALL_CHUNK') tools.closeChunk(ctx);
  }

  function push(frame: Frame): void {
    lastFrame = frame;
    const ctx = (eventContext ??= new ProviderEventContext(frame, callbacks, runId)).next(frame, runId);
    if (compact.read(frame.data)) {
      // A message's content in the SDKs' compact form: decoded as below, without JSON.parse.
      events++;
      const { type, messageId: id, delta } = compact;
      lifecycle.checkInRun(ctx, type);
      closeChunks(ctx, type);
      (type === 'TEXT_MESSAGE_CONTENT' ? text : reasoning).compactContent(ctx, type, id, delta);
      return;
    }
    const event = readWireEvent(ctx, 'AG-UI');
    events++;
    if (!event) return;
    const type = event['type'] as string;
    if (!AG_UI_EVENT_TYPES.has(type)) {
      if (!unknownReported.has(type)) {
        unknownReported.add(type);
        reportUnknown(ctx, type);
      }
      ctx.wire(type, event);
      return;
    }
    lifecycle.checkInRun(ctx, type);
    closeChunks(ctx, type);
    (HANDLERS[type] ?? passThrough)(ctx, type, event);
  }

  /**
   * An event type no AG-UI version has. One that spells a known type in another case (`Custom`)
   * is an error, not decoded as that type: a client rejects it and fails the run there.
   */
  function reportUnknown(ctx: ProviderEventContext, type: string): void {
    const meant = misspelledType(type);
    const seq = ctx.frame.seq;
    if (meant === undefined)
      ctx.report(
        'provider.unknown-event',
        `Event ${seq} has type ${jsonText(type)}, which is no AG-UI event this version knows; kept as a provider event. Later ones are not reported again.`,
      );
    else
      ctx.report(
        'provider.invalid-event',
        `Event ${seq} has type ${jsonText(type)}, which is no AG-UI event type: types are case-sensitive, and the one meant is spelled ${meant}. The SDKs' clients (@ag-ui/client's event validation, the Python SDK's EventType) reject the event and fail the run; kept as a provider event, not decoded as ${meant}. Later ones are not reported again.`,
      );
  }

  return {
    id: 'ag-ui',
    push,
    end() {
      if (lastFrame) lifecycle.streamEnded(new ProviderEventContext(lastFrame, callbacks, runId), events);
    },
  };
}
