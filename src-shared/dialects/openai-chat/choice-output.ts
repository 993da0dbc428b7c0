import { NO_EXTRAS, undecodedParts } from '../../envelope/types';
import { unified, type StreamIds } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject, jsonKind, parseJson } from '../../json/values';
import { previewText } from '../../text/preview';
import { checkToolArguments, stringField, type ProviderEventContext } from '../provider/event-context';
import { citationExtras } from '../provider/citation-extras';
import type { Choice, Completion } from './completion';
import { callId, type ToolCall } from './tool-calls';
import { filtered, reasoningText, TEXT, type StreamedChannel } from './vocabulary';

/*
 * What a choice writes: its text channels as streamed envelopes into one open block at a
 * time, its tool call fragments as they come and its tool calls as one call envelope each when
 * they end, and the sources its text cites.
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
  let first = extras;
  if (choice.open !== channel) {
    closeText(ctx, current, choice);
    choice.open = channel;
    choice.deltaEvent = unified('stream.content_block_delta', streamIds(current, choice), {
      kind: channel.delta,
      channel: channel.channel,
    });
    if (channel.name !== undefined) first = { ...extras, name: channel.name };
  }
  ctx.envelope(channel.kind, false, text, first, undefined, choice.deltaEvent);
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

/** What an invalid-chunk finding says of the event: the whole chunk undecoded, or one part of it. */
const UNDECODED = {
  chunk: ', so it is no chat.completion.chunk; kept undecoded',
  part: "; that part is not decoded (the event's data is kept undecoded beside it), the rest of the chunk is",
} as const;

/**
 * A chunk of the wrong shape, or (`part`) a part of one (a choice, a delta, a tool_calls entry):
 * reported, and the event's data kept in an undecoded envelope, beside what the rest of the
 * chunk decoded to when only a part was wrong.
 */
export function invalidChunk(ctx: ProviderEventContext, what: string, scope: keyof typeof UNDECODED = 'chunk'): void {
  ctx.report(
    'openai-chat.invalid-chunk',
    `Event ${ctx.frame.seq} ${what}${UNDECODED[scope]}: ${previewText(ctx.frame.data)}`,
  );
  ctx.emit(undecodedParts(ctx.frame));
}

/**
 * One fragment of a choice's `tool_calls` (at `position` in that array) or its legacy
 * `function_call`, shown as it came: a call's first with `stream.tool_call_start` (the open
 * text block closes), its later ones with `stream.tool_call_input.delta`.
 */
export function writeToolFragment(
  ctx: ProviderEventContext,
  current: Completion,
  choice: Choice,
  fragment: unknown,
  legacy: boolean,
  position: number,
): void {
  const outcome = choice.tools.add(fragment, legacy, position);
  if (outcome.kind === 'invalid')
    return invalidChunk(
      ctx,
      `has a tool_calls entry for choice ${choice.index} that is a JSON ${jsonKind(fragment)}`,
      'part',
    );
  const call = outcome.call;
  choice.clock.token(ctx.frame.receivedAt);
  if (outcome.kind !== 'appended') closeText(ctx, current, choice);
  if (outcome.kind === 'not-started')
    ctx.report(
      'provider.block-not-started',
      `Event ${ctx.frame.seq} has argument text for ${call.label} of choice ${choice.index}, which no fragment with an id and a name began; kept in a call without them, which a client cannot call.`,
    );
  else if (outcome.kind === 'restarted')
    ctx.report(
      'provider.block-started-twice',
      `Event ${ctx.frame.seq} begins a call with id ${jsonText(call.id)} under ${call.label} of choice ${choice.index}, where the call ${jsonText(outcome.previous.id)} is still open; kept as two calls (a client that joins fragments by index would merge their arguments).`,
    );
  const family = outcome.kind === 'appended' ? 'stream.tool_call_input.delta' : 'stream.tool_call_start';
  // The row shows the argument text the fragment carried.
  ctx.envelope(
    legacy ? 'function_call' : 'tool_calls',
    true,
    outcome.args,
    fragment as Record<string, unknown>,
    'provider-event',
    unified(family, streamIds(current, choice, call), {
      kind: 'function',
      tool: { kind: 'client', name: call.name },
    }),
  );
}

/**
 * The sources the completion's chunks name (Perplexity's `search_results`, or its `citations`
 * URLs), as citations of the choice's text when it finishes: the text cites them as `[1]`,
 * `[2]`…, by their place in the list, given as `citation_index`.
 */
export function writeSources(ctx: ProviderEventContext, current: Completion, choice: Choice): void {
  current.sources.forEach((source, i) => {
    const fields = isJsonObject(source) ? source : { url: source };
    ctx.emit(
      {
        type: KIND.citation,
        final: true,
        delta: stringField(fields, 'title') || stringField(fields, 'url'),
        extras: { citation_type: 'search_result', citation_index: i + 1, ...fields },
      },
      unified('stream.content_block_delta', streamIds(current, choice), {
        kind: 'annotation_added',
        channel: 'output_text',
      }),
    );
  });
}

/**
 * The annotations a choice's deltas carried (`delta.annotations`: OpenAI's search models and
 * OpenRouter's web plugin send `{type: "url_citation", url_citation: {url, title, start_index,
 * end_index, content?}}`), as citations of its text once it ends: they may come before the text
 * they cite (OpenRouter sends them first). Taken once: the list is emptied.
 */
export function writeAnnotations(ctx: ProviderEventContext, current: Completion, choice: Choice): void {
  for (const annotation of choice.annotations.splice(0)) {
    if (!isJsonObject(annotation)) continue;
    // Its fields are those of the member its type names (`url_citation`), or its own.
    const type = annotation['type'];
    const nested = typeof type === 'string' ? annotation[type] : undefined;
    const fields = isJsonObject(nested) ? nested : annotation;
    const extras = citationExtras(type, fields);
    ctx.emit(
      { type: KIND.citation, final: true, delta: stringField(fields, 'title') || stringField(fields, 'url'), extras },
      unified('stream.content_block_delta', streamIds(current, choice), {
        kind: 'annotation_added',
        channel: 'output_text',
      }),
    );
  }
}

/**
 * The choice's calls as one tool_call envelope each (the legacy function_call with the id its
 * pause and answer name it by), its arguments joined: complete
 * (`final`, the arguments checked to parse) at its finish, left open when the stream ended first.
 * A finish that cut the output short (`cutShort`: the token limit) may have stopped the model
 * inside a call's arguments: a call whose arguments do not parse is what the limit left of it,
 * left open as sent (the finish is reported; its arguments are not said to be complete).
 */
export function writeCalls(
  ctx: ProviderEventContext,
  current: Completion,
  choice: Choice,
  final: boolean,
  cutShort = false,
): ToolCall[] {
  const calls = choice.tools.take();
  for (const call of calls) {
    const args = call.args.join('');
    const complete = final && !(cutShort && args.trim() !== '' && !parseJson(args).ok);
    if (complete)
      checkToolArguments(
        ctx,
        args,
        `The ${call.label} of choice ${choice.index} (${call.name || 'unnamed'}, ${call.id || 'no id'})`,
      );
    ctx.emit(
      {
        type: KIND.tool_call,
        final: complete,
        delta: args === '' ? '{}' : args,
        extras: { id: callId(call), name: call.name },
      },
      complete
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

const nonEmpty = (value: unknown): boolean => typeof value === 'string' && value !== '';

/** Whether a delta carries output: text of a channel, audio, or tool call fragments (an array, or TGI's one object). */
export function carriesContent(delta: Record<string, unknown>): boolean {
  const content = delta['content'];
  return (
    reasoningText(delta) !== '' ||
    (typeof content === 'string' ? content !== '' : Array.isArray(content) && content.length > 0) ||
    nonEmpty(delta['refusal']) ||
    (isJsonObject(delta['audio']) && (nonEmpty(delta['audio']['transcript']) || nonEmpty(delta['audio']['data']))) ||
    (Array.isArray(delta['tool_calls']) && delta['tool_calls'].length > 0) ||
    isJsonObject(delta['tool_calls']) ||
    isJsonObject(delta['function_call'])
  );
}
