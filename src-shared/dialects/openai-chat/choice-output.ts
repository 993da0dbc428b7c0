import { NO_EXTRAS } from '../../envelope/types';
import { unified, type StreamIds } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { isJsonObject } from '../../json/values';
import { checkToolArguments, type ProviderEventContext } from '../provider/event-context';
import type { Choice, Completion } from './completion';
import type { ToolCall } from './tool-calls';
import { filtered, reasoningText, TEXT, type StreamedChannel } from './vocabulary';

/*
 * What a choice writes: its text channels as streamed envelopes into one open block at a
 * time, and its tool calls as one call envelope each when they end.
 */

/** StreamIds of a choice (and a call): the completion's id, the choice's index, the call's index and id. */
export function streamIds(current: Completion, choice: Choice, call?: ToolCall): StreamIds {
  return {
    message_id: current.id,
    output_index: choice.index,
    content_index: call?.index,
    tool_call_id: call?.id,
  };
}

/**
 * Text of one channel, streamed into the choice's open block of that channel (the open block
 * of another channel closes first). Returns whether it wrote (empty text writes nothing).
 */
export function writeText(
  ctx: ProviderEventContext,
  current: Completion,
  choice: Choice,
  channel: StreamedChannel,
  text: string,
  extras: Record<string, unknown>,
): boolean {
  if (text === '') return false;
  choice.clock.token(ctx.frame.receivedAt);
  if (choice.open !== channel) {
    closeText(ctx, current, choice);
    choice.open = channel;
    choice.deltaEvent = unified('stream.content_block_delta', streamIds(current, choice), {
      kind: channel.delta,
      channel: channel.channel,
    });
  }
  ctx.envelope(channel.kind, false, text, extras, undefined, choice.deltaEvent);
  if (channel === TEXT) choice.content.add(text);
  return true;
}

/** Closes the choice's open text block, if one is open: its final envelope. */
export function closeText(ctx: ProviderEventContext, current: Completion, choice: Choice): void {
  const open = choice.open;
  if (!open) return;
  choice.open = undefined;
  choice.deltaEvent = undefined;
  ctx.envelope(
    open.kind,
    true,
    '',
    NO_EXTRAS,
    undefined,
    unified('stream.content_block_stop', streamIds(current, choice), { kind: open.kind, channel: open.channel }),
  );
}

/**
 * The choice's calls as one tool_call envelope each, its arguments joined: complete
 * (`final`, the arguments checked to parse) at its finish, left open when the stream ended first.
 */
export function writeCalls(ctx: ProviderEventContext, current: Completion, choice: Choice, final: boolean): ToolCall[] {
  const calls = choice.tools.take();
  for (const call of calls) {
    const args = call.args.join('');
    if (final)
      checkToolArguments(
        ctx,
        args,
        `The ${call.label} of choice ${choice.index} (${call.name || 'unnamed'}, ${call.id || 'no id'})`,
      );
    ctx.emit(
      { type: KIND.tool_call, final, delta: args === '' ? '{}' : args, extras: { id: call.id, name: call.name } },
      final
        ? unified('stream.tool_call_stop', streamIds(current, choice, call), { kind: 'function', phase: 'completed' })
        : undefined,
    );
  }
  return calls;
}

/** The parts of a choice a text delta carries along: its logprobs, and Azure's filter results when they filtered something. */
export function choiceExtras(choice: Record<string, unknown>): Record<string, unknown> {
  const logprobs = choice['logprobs'];
  const results = choice['content_filter_results'];
  const hasLogprobs = logprobs !== undefined && logprobs !== null;
  const hasFiltered = filtered(results);
  if (!hasLogprobs && !hasFiltered) return NO_EXTRAS;
  const extras: Record<string, unknown> = {};
  if (hasLogprobs) extras['logprobs'] = logprobs;
  if (hasFiltered) extras['content_filter_results'] = results;
  return extras;
}

/** Whether a delta carries output: text of a channel, or tool call fragments. */
export function carriesContent(delta: Record<string, unknown>): boolean {
  const content = delta['content'];
  return (
    reasoningText(delta) !== '' ||
    (typeof content === 'string' ? content !== '' : Array.isArray(content) && content.length > 0) ||
    (typeof delta['refusal'] === 'string' && delta['refusal'] !== '') ||
    (Array.isArray(delta['tool_calls']) && delta['tool_calls'].length > 0) ||
    isJsonObject(delta['function_call'])
  );
}
