import { unified } from '../../envelope/unified';
import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';
import {
  endsStream,
  isFailedState,
  isKnownState,
  type A2aArtifact,
  type A2aEvent,
  type A2aMessage,
  type A2aPart,
} from './a2a';
import type { Exchange } from './exchange';
import { exchangeIds, type ExchangeOutput } from './output';

type TaskEvent = Extract<A2aEvent, { kind: 'task' | 'status-update' }>;

/**
 * One A2A event of the exchange: a Task starts it (the task's lifecycle begins), status
 * updates move its state (their agent messages become text blocks), artifact chunks stream as
 * text blocks (checked for order), and the status update that ends the stream (`final: true`,
 * or 1.0's terminal or interrupted state) ends it: in failure when the task failed or was
 * rejected. A Message answering the request before any Task is the whole answer.
 */
export function a2aEvent(
  out: ExchangeOutput,
  exchange: Exchange,
  event: A2aEvent,
  body: Record<string, unknown>,
): void {
  switch (event.kind) {
    case 'task':
      return task(out, exchange, event, body);
    case 'status-update':
      return statusUpdate(out, exchange, event, body);
    case 'artifact-update':
      return artifactUpdate(out, exchange, event, body);
    case 'message':
      return message(out, exchange, event, body);
  }
}

function adopt(out: ExchangeOutput, exchange: Exchange, event: TaskEvent): void {
  if (exchange.taskId === '') exchange.taskId = event.taskId;
  if (exchange.contextId === '') exchange.contextId = event.contextId;
  const { state } = event;
  if (state !== '' && !isKnownState(state) && !exchange.states.includes(state))
    out.ctx.report(
      'json-rpc.unknown-state',
      `Task ${exchange.taskId || '(no id)'} is in state ${jsonText(state)} in event ${out.ctx.frame.seq}, none of A2A's task states (submitted, working, input-required, auth-required, completed, canceled, failed, rejected, unknown): a client that checks the state rejects the event. Shown as sent.`,
    );
  exchange.state(state);
}

function task(
  out: ExchangeOutput,
  exchange: Exchange,
  event: Extract<A2aEvent, { kind: 'task' }>,
  body: Record<string, unknown>,
): void {
  exchange.sawTask = true;
  adopt(out, exchange, event);
  out.ctx.wire('task', body, unified('stream.message_start', exchangeIds(exchange), { phase: event.state }));
  if (event.statusMessage) agentMessage(out, exchange, event.statusMessage, event.state);
  for (const artifact of event.artifacts) {
    exchange.artifacts.accept(artifact.key, artifact.name, false, true, out.ctx.frame.seq);
    artifactParts(out, exchange, artifact, true);
    out.writer.close(out.ctx);
  }
  // A task already at its end (a resubscription to a finished task) is all the stream sends.
  if (!exchange.ended && endsStream({ state: event.state })) end(out, exchange, event, 'task');
}

function statusUpdate(
  out: ExchangeOutput,
  exchange: Exchange,
  event: Extract<A2aEvent, { kind: 'status-update' }>,
  body: Record<string, unknown>,
): void {
  adopt(out, exchange, event);
  const final = !exchange.ended && endsStream(event);
  out.ctx.wire(
    'status-update',
    body,
    unified(final ? 'stream.message_stop' : 'stream.message_delta', exchangeIds(exchange), { phase: event.state }),
  );
  if (event.statusMessage) agentMessage(out, exchange, event.statusMessage, event.state);
  if (final) end(out, exchange, event, 'status-update');
}

function end(out: ExchangeOutput, exchange: Exchange, event: TaskEvent, kind: string): void {
  const failed = isFailedState(event.state);
  const said = event.statusMessage?.parts.map((p) => p.text).join('') ?? '';
  if (failed)
    out.ctx.report(
      'json-rpc.task-failed',
      `Task ${exchange.taskId || '(no id)'} ended ${event.state} in event ${out.ctx.frame.seq}${said === '' ? ', with no message.' : `, saying: ${said}`}`,
    );
  out.endStream(exchange, {
    event: `${kind} (${event.state || 'no state'})`,
    ...(failed ? { error: `task ${event.state}${said === '' ? '' : `: ${said}`}` } : {}),
  });
  out.summarise(exchange, { status: event.state || 'ended', stopReason: event.state || 'final' });
}

function artifactUpdate(
  out: ExchangeOutput,
  exchange: Exchange,
  event: Extract<A2aEvent, { kind: 'artifact-update' }>,
  body: Record<string, unknown>,
): void {
  const { ctx, writer } = out;
  const { artifact } = event;
  const problem = exchange.artifacts.accept(artifact.key, artifact.name, event.append, event.lastChunk, ctx.frame.seq);
  if (problem) {
    ctx.report(
      'json-rpc.artifact-out-of-order',
      `The artifact chunk in event ${ctx.frame.seq} ${problem}; its content is kept in a block of its own.`,
    );
  }
  exchange.clock.token(ctx.frame.receivedAt);
  if (artifact.parts.length === 0) ctx.wire('artifact-update', body);
  // A chunk that is not an append starts the artifact again; a misplaced append starts a block of its own.
  const fresh = !event.append || problem !== undefined;
  artifactParts(out, exchange, artifact, fresh);
  if (event.lastChunk) writer.close(ctx, artifactSource(artifact));
  else if (!fresh && artifact.parts.length === 1 && artifact.parts[0]?.kind === 'text' && !exchange.ended)
    out.continuedChunk(exchange, artifactSource(artifact), artifact.parts[0].text);
}

const artifactSource = (artifact: A2aArtifact): string => `artifact:${artifact.key}`;

function artifactParts(out: ExchangeOutput, exchange: Exchange, artifact: A2aArtifact, fresh: boolean): void {
  const source = artifactSource(artifact);
  const ids = exchangeIds(exchange, { item_id: artifact.key, block_id: artifact.key });
  let first = fresh;
  for (const part of artifact.parts) {
    if (part.kind === 'text') {
      out.writer.text(out.ctx, source, exchange.artifacts.nameOf(artifact.key), part.text, ids, first);
      first = false;
    } else partBlock(out, part, exchange.artifacts.nameOf(artifact.key));
  }
}

function message(
  out: ExchangeOutput,
  exchange: Exchange,
  event: Extract<A2aEvent, { kind: 'message' }>,
  body: Record<string, unknown>,
): void {
  out.ctx.wire('message', body, unified('stream.message_delta', exchangeIds(exchange), { phase: 'message' }));
  exchange.clock.token(out.ctx.frame.receivedAt);
  agentMessage(out, exchange, event.message, event.message.role);
  // An agent that answers with a Message and no Task has answered: the stream ends there.
  if (!exchange.sawTask && !exchange.ended) {
    out.endStream(exchange, { event: 'message' });
    out.summarise(exchange, { status: 'completed', stopReason: 'message' });
  }
}

/** An agent message (a status update's, or a Message result): its text as one block, its other parts beside. */
function agentMessage(out: ExchangeOutput, exchange: Exchange, message: A2aMessage, name: string): void {
  const source = `message:${out.ctx.frame.seq}`;
  const ids = exchangeIds(exchange);
  let opened = false;
  for (const part of message.parts) {
    if (part.kind === 'text') {
      out.writer.text(out.ctx, source, name, part.text, ids, !opened);
      opened = true;
    } else partBlock(out, part, part.label);
  }
  out.writer.close(out.ctx, source);
}

/** A file, data or unknown part: a block of its kind named `name`, the part (a data part's data) as JSON. */
function partBlock(out: ExchangeOutput, part: A2aPart, name: string): void {
  const value = part.kind === 'data' && isJsonObject(part.value) ? part.value['data'] : part.value;
  out.writer.part(out.ctx, part.kind === 'other' ? 'part' : part.kind, name, jsonText(value));
}
