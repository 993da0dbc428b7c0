import type { DiagnosticLocation } from '../../diagnostics/types';
import { undecodedParts } from '../../envelope/types';
import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { errorMessage } from '../../json/values';
import type { Frame } from '../../sse/types';
import { previewText } from '../../text/preview';
import { ProviderEventContext } from '../provider/event-context';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import { readA2aResult, type A2aEvent } from './a2a';
import { a2aEvent } from './a2a-events';
import { ContentWriter } from './content';
import { Exchange } from './exchange';
import { mcpNotification, mcpResult, mcpServerRequest } from './mcp';
import { idKey, readRpcMessage, showId, type RpcMessage } from './message';
import { exchangeIds, type ExchangeOutput } from './output';
import { RecentArtifactChunk } from './recent-chunk';

const WHAT: Record<RpcMessage['kind'], string> = {
  request: 'a request',
  notification: 'a notification',
  result: 'a result',
  error: 'an error response',
  unreadable: 'a message',
};

type Response = Extract<RpcMessage, { kind: 'result' | 'error' }>;

const RESPONSE = 'its response';
const FINAL_STATUS = 'its final status update';

const isResponse = (message: RpcMessage): message is Response => message.kind === 'result' || message.kind === 'error';

/** Data with nothing but whitespace: MCP's priming event (an id and an empty `data:`), or a keep-alive. */
function isBlank(data: string): boolean {
  if (data.length === 0) return true;
  const first = data.charCodeAt(0);
  return (first === 0x20 || first === 0x09 || first === 0x0a || first === 0x0d) && data.trim() === '';
}

/**
 * Messages after the response that ended an MCP stream: the next exchange of a capture holding
 * several, or messages the server should not have sent. Its next response tells which.
 */
/** What a learnt artifact chunk decoded to: a delta of the open text block `source` of `exchange`. */
interface ChunkMeaning {
  exchange: Exchange;
  source: string;
}

interface Stray {
  previous: Exchange;
  at: DiagnosticLocation;
  frame: number;
  count: number;
}

/** What ended an exchange, by the event its end names (a2a-events.ts, mcp.ts), as a finding says it. */
const ENDED_BY: Readonly<Record<string, string>> = {
  'status-update': 'the final status update',
  task: 'the Task in a final state',
  message: "the agent's Message (its reply, without a Task)",
  result: 'the response',
  error: 'the error response',
};

/**
 * JSON-RPC 2.0 messages over SSE (docs/protocols/json-rpc.md): MCP Streamable HTTP (server
 * notifications and requests, then the response that ends the POST's stream) and A2A streaming
 * (every event a response to the `message/stream` request, ending at the final status update).
 * Each SSE event holds one message, or a batch as a JSON array; MCP's priming events (an id and
 * empty data) and the old HTTP+SSE transport's `endpoint` event are shown as they are. Messages
 * are checked against JSON-RPC 2.0, responses against the id the stream answers; the stream's
 * end is its response (MCP) or its final status (A2A), after which a `message` block sums the
 * exchange up.
 */
export function createJsonRpcDecoder(callbacks: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  const writer = new ContentWriter();
  let eventContext: ProviderEventContext | undefined;
  let exchange: Exchange | undefined;
  let stray: Stray | undefined;
  /** The ended exchange whose after-end finding was given (one per exchange). */
  let afterEndReported: Exchange | undefined;
  let sawEventIds = false;
  /** A notification or request from the server came: the stream is MCP's (see awaitedEnd). */
  let sawServerMessage = false;
  /**
   * The stream opened with the old HTTP+SSE transport's `endpoint` event: it is the session's
   * one channel, carrying the responses to every POST, and has no end of its own (it lasts
   * until either side closes it), so no response ends it.
   */
  let channel = false;
  let lastFrame: Frame | undefined;
  const recent = new RecentArtifactChunk<ChunkMeaning>();
  const readShapes = options.readShapes !== false;
  /** The message being decoded is its event's only one, valid JSON-RPC: a chunk of it may be learnt. */
  let learnable = false;

  const context = (): ProviderEventContext => eventContext as ProviderEventContext;
  const out: ExchangeOutput = {
    get ctx() {
      return context();
    },
    writer,
    endStream(ended, end) {
      ended.ended = true;
      ended.endFrame = context().frame.seq;
      ended.endedBy = ENDED_BY[end.event.split(' ')[0] as string] ?? end.event;
      if (!channel) callbacks.onStreamEnd?.(end);
    },
    summarise(ended, outcome) {
      writer.close(context());
      ended.clock.status = outcome.status;
      ended.clock.stopReason = outcome.stopReason;
      emitSummary(ended);
    },
    continuedChunk(current, source, text) {
      if (learnable) recent.learn(context().frame.data, text, { exchange: current, source });
    },
  };

  /**
   * The next chunk of the artifact the last one continued, read without JSON.parse (see
   * RecentArtifactChunk): a delta of its open text block, exactly as decoding it would be,
   * while that block is still open in the same exchange and nothing else happened.
   */
  function readContinuedChunk(ctx: ProviderEventContext, frame: Frame): boolean {
    if (!readShapes || frame.event === 'endpoint' || !recent.read(frame.data)) return false;
    const meaning = recent.meaning as ChunkMeaning;
    if (meaning.exchange !== exchange || meaning.exchange.ended || stray || !writer.isOpen(meaning.source))
      return false;
    writer.text(ctx, meaning.source, '', recent.text, {});
    return true;
  }

  function emitSummary(ended: Exchange): void {
    const ctx = context();
    ctx.emit({
      type: KIND.message,
      final: true,
      delta: ended.summary(ctx.frame.receivedAt),
      extras: ended.label !== '' ? { id: ended.label } : {},
    });
  }

  function push(frame: Frame): void {
    lastFrame = frame;
    if (frame.id !== '') sawEventIds = true;
    const agent = exchange?.agent ?? '';
    const ctx = (eventContext ??= new ProviderEventContext(frame, callbacks, agent)).next(frame, agent);
    if (readContinuedChunk(ctx, frame)) return;
    // The old HTTP+SSE transport (MCP 2024-11-05) opens its stream with the URL to POST to.
    if (frame.event === 'endpoint') {
      channel = true;
      return ctx.wire('endpoint', { uri: frame.data });
    }
    if (isBlank(frame.data)) return ctx.wire(frame.id === '' ? 'empty' : 'priming', { id: frame.id });
    let value: unknown;
    try {
      value = JSON.parse(frame.data);
    } catch (error) {
      ctx.report(
        'json-rpc.invalid-message',
        `Event ${frame.seq} is not JSON (${errorMessage(error)}), so no JSON-RPC message; kept undecoded: ${previewText(frame.data)}`,
      );
      ctx.emit(undecodedParts(frame));
      return;
    }
    if (!Array.isArray(value)) {
      const message = readRpcMessage(value);
      learnable = message.problems.length === 0;
      handle(message, '');
      learnable = false;
      return;
    }
    if (value.length === 0) {
      ctx.report(
        'json-rpc.invalid-message',
        `Event ${frame.seq} is an empty JSON array: a batch holds at least one message.`,
      );
      ctx.emit(undecodedParts(frame));
      return;
    }
    value.forEach((item, i) => handle(readRpcMessage(item), ` (message ${i + 1} of its batch)`));
  }

  function handle(message: RpcMessage, where: string): void {
    const ctx = context();
    if (message.problems.length > 0)
      ctx.report(
        'json-rpc.invalid-message',
        `Event ${ctx.frame.seq}${where} is not valid JSON-RPC 2.0: ${message.problems.join('; ')}; ${message.kind === 'unreadable' ? 'kept as it is' : `decoded as ${WHAT[message.kind]}`}.`,
      );
    if (message.kind === 'unreadable') {
      if (Object.keys(message.body).length > 0) ctx.wire('invalid', message.body);
      else ctx.emit(undecodedParts(ctx.frame));
      return;
    }
    const a2a = message.kind === 'result' ? readA2aResult(message.result) : undefined;
    const current = exchangeOf(message, a2a);
    if (!current || (isResponse(message) && !answers(current, message))) {
      ctx.wire(message.kind, message.body);
      return;
    }
    if (current.agent === '' && a2a?.taskId) current.agent = a2a.taskId;
    ctx.next(ctx.frame, current.agent);
    dispatch(current, message, a2a);
    // What strays after the end is shown in blocks of its own, closed at once: no block stays open after the end.
    if (current.ended) writer.close(ctx);
  }

  function dispatch(
    current: Exchange,
    message: Exclude<RpcMessage, { kind: 'unreadable' }>,
    a2a: A2aEvent | undefined,
  ): void {
    switch (message.kind) {
      case 'notification':
        sawServerMessage = true;
        return mcpNotification(out, current, message);
      case 'request':
        sawServerMessage = true;
        return mcpServerRequest(out, current, message);
      case 'error':
        return rpcError(current, message);
      case 'result':
        if (a2a) {
          current.protocol = 'a2a';
          return a2aEvent(out, current, a2a, message.body);
        }
        // A result of no A2A shape in an A2A stream is shown as it is; in any other, it is MCP's.
        if (current.protocol === 'a2a') return context().wire('result', message.body);
        current.protocol = 'mcp';
        return mcpResult(out, current, message);
    }
  }

  /**
   * Whether a response answers the request of `current`: the first one names it; every A2A event
   * after must answer the same id (an error with a null id answers a request whose id the server
   * could not read). A response for another id is reported and shown, not decoded: a client drops it.
   */
  function answers(current: Exchange, message: Response): boolean {
    if (current.rpcId === undefined) {
      current.rpcId = message.id;
      return true;
    }
    if (idKey(message.id) === current.rpcKey || (message.kind === 'error' && message.id === null)) return true;
    const ctx = context();
    ctx.report(
      'json-rpc.unknown-id',
      `Event ${ctx.frame.seq} answers id ${showId(message.id)}, but this stream answers request ${showId(current.rpcId)} (every event of an A2A stream answers the request that opened it): a client drops it.`,
    );
    return false;
  }

  /** The exchange a message belongs to: the open one, the next one after an end, or the ended one it strays after. */
  function exchangeOf(message: RpcMessage, a2a: A2aEvent | undefined): Exchange | undefined {
    const ctx = context();
    if (!exchange) return (exchange = new Exchange(ctx.frame.receivedAt));
    if (stray) return mcpAfterResponse(message);
    if (!exchange.ended) return exchange;
    if (exchange.protocol !== 'a2a') return mcpAfterResponse(message);
    const next =
      isResponse(message) &&
      (idKey(message.id) !== exchange.rpcKey || (a2a?.kind === 'task' && a2a.taskId !== exchange.taskId));
    if (next) return nextExchange(exchange);
    afterEnd(exchange, ctx.at, ctx.frame.seq, 1);
    return exchange;
  }

  /**
   * A message after the response that ended an MCP stream. Held as the start of a next exchange
   * until a response says which it is: a response to another id begins the next exchange of a
   * capture holding several; one to the same id repeats the answer, and everything since the end
   * strayed after it (shown, not decoded).
   */
  function mcpAfterResponse(message: RpcMessage): Exchange | undefined {
    const ctx = context();
    const current = exchange as Exchange;
    if (!stray) {
      stray = { previous: current, at: ctx.at, frame: ctx.frame.seq, count: 0 };
      exchange = new Exchange(ctx.frame.receivedAt);
    }
    stray.count++;
    if (!isResponse(message)) return exchange;
    const { previous, at, frame, count } = stray;
    const begun = exchange;
    stray = undefined;
    if (idKey(message.id) !== previous.rpcKey) return nextExchange(previous, begun);
    afterEnd(previous, at, frame, count);
    exchange = previous;
    return undefined;
  }

  /** The next exchange of a capture that holds several: said once, and the stream is open again until it ends. */
  function nextExchange(previous: Exchange, begun?: Exchange): Exchange {
    const ctx = context();
    // On the old transport's channel one exchange after another is the protocol's way.
    if (!channel)
      ctx.report(
        'provider.next-message',
        `Event ${ctx.frame.seq} begins a new exchange after ${previous.label === '' ? 'the exchange' : `exchange ${previous.label}`} ended in event ${previous.endFrame}: the capture holds several, decoded one after another.`,
      );
    callbacks.onStreamResumed?.();
    exchange = begun ?? new Exchange(ctx.frame.receivedAt);
    return exchange;
  }

  function afterEnd(ended: Exchange, at: DiagnosticLocation, frame: number, count: number): void {
    if (afterEndReported === ended) return;
    afterEndReported = ended;
    callbacks.onDiagnostic({
      rule: 'json-rpc.after-end',
      message: `Event ${frame}${count > 1 ? ` and ${count - 1} more` : ''} came after ${ended.endedBy} in event ${ended.endFrame} ended the stream: the server should end the stream there, and a client has stopped reading. Later ones are not reported again.`,
      at,
    });
  }

  function rpcError(current: Exchange, message: Extract<RpcMessage, { kind: 'error' }>): void {
    const ctx = context();
    const { code, message: said, data } = message.error;
    const what = `error ${code ?? '(no code)'}: ${said || '(no message)'}`;
    ctx.report(
      'json-rpc.error',
      `The server answered ${message.id === null ? 'a request it could not tell (id null)' : `request ${showId(message.id)}`} with JSON-RPC ${what}${data !== undefined ? ` (data: ${previewText(jsonText(data))})` : ''}.`,
    );
    const ending = !current.ended;
    if (ending) out.endStream(current, { event: 'error', error: what });
    writer.close(ctx);
    current.clock.error = message.body['error'];
    ctx.emit(
      { type: KIND.error, final: true, delta: jsonText(message.body['error']), extras: {} },
      unified('stream.error', exchangeIds(current), { error: message.body['error'], phase: 'failed' }),
    );
    if (ending) out.summarise(current, { status: 'error', stopReason: `error ${code ?? ''}`.trim() });
  }

  function end(): void {
    const ctx = eventContext;
    if (!ctx || !lastFrame) return;
    if (channel) callbacks.onTransportEnd?.();
    if (stray) {
      afterEnd(stray.previous, stray.at, stray.frame, stray.count);
      return;
    }
    const at = { byteStart: lastFrame.byteEnd };
    // Only a priming event, then the server closed the connection (its URL said MCP): the client resumes.
    if (!exchange && sawEventIds) return resumable(at, RESPONSE);
    if (!exchange || exchange.ended) return;
    const a2a = exchange.protocol === 'a2a';
    const awaited = awaitedEnd() ?? RESPONSE;
    if (!a2a && sawEventIds) {
      resumable(at, awaited);
    } else if (a2a || exchange.sawProgress) {
      const state = exchange.states[exchange.states.length - 1];
      callbacks.onDiagnostic({
        rule: 'json-rpc.truncated',
        message: `The stream ended before ${awaited}${state ? ` (the task was ${state})` : ''}: the response was cut off or the connection dropped.`,
        at,
      });
    } else {
      callbacks.onDiagnostic({
        rule: 'json-rpc.no-response',
        message:
          'The stream carried only messages the server sent on its own (notifications, requests) and no response: a GET stream is so and ends when the server closes it; were this the stream of a POST, its response would be missing.',
        at,
      });
      callbacks.onTransportEnd?.();
      return;
    }
    exchange.clock.status = 'cut';
    emitSummary(exchange);
  }

  function resumable(at: DiagnosticLocation, awaited: string): void {
    callbacks.onDiagnostic({
      rule: 'json-rpc.resumable-end',
      message: `The stream ended before ${awaited}, but its events carry ids (the last: ${JSON.stringify(lastFrame?.id ?? '')}): a client may resume it with a GET and Last-Event-ID, on which the rest would come.`,
      at,
    });
  }

  /**
   * The end this stream waits for, once its events say which protocol it is: an A2A stream's
   * final status update, an MCP stream's response. A notification or a request from the server
   * is MCP's (every event of an A2A stream is a response), and so is a priming event with an id.
   * Unknown (a stream of server messages alone): the module's `terminalEvent` names both.
   */
  function awaitedEnd(): string | undefined {
    if (exchange?.protocol === 'a2a') return FINAL_STATUS;
    return exchange?.protocol === 'mcp' || sawServerMessage || (!exchange && sawEventIds) ? RESPONSE : undefined;
  }

  return { id: 'json-rpc', push, end, awaitedEnd };
}
