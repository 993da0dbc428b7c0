import type { Frame } from '../../sse/types';
import { integerField, readWireEvent, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import { jsonText } from '../../json/tree';
import type { DecodedDelta } from './content-parts';
import { inputEvent, itemAdded, itemDone, resultEvent, statusEvent } from './item-events';
import { annotation, audioEvent, partAdded, partDone, streamText, textEvent } from './part-events';
import { apiError, lifecycle, terminal } from './response-events';
import { pauseOnClientCalls } from './client-calls';
import { ResponsesStream } from './stream-state';
import { AUDIO, INPUT_STREAMS, LIFECYCLE, STATUS_CALLS, TERMINAL, TEXT_DELTAS, TEXT_STREAMS } from './vocabulary';

/**
 * The OpenAI Responses API stream (docs/protocols/provider-events.md): `event:` + `data:`
 * frames, each with a `sequence_number`, ending at response.completed, .failed or
 * .incomplete (or a top-level `error`). Output text, refusals, reasoning text and reasoning
 * summaries become streamed envelopes of their own types; annotations become citations of
 * the text; function, custom and MCP calls are buffered into one call envelope at the
 * item's done (arguments checked to parse); built-in tools become a server tool call with
 * its status phases and a server tool result (generated images attach to it), and so does a
 * custom tool call the response's tools do not define (the API's own, declared-tools.ts); a
 * call of a tool the client runs (local shell, shell, patch) is buffered like a function call.
 * Every other event is shown as a provider event; each envelope carries the event's unified
 * form, and a `message` envelope sums the response up at its terminal event.
 *
 * The decoder routes each event to its concept's handlers (response-events, item-events,
 * part-events), which share the decoder's state (`ResponsesStream`).
 */
export function createOpenAiResponsesDecoder(
  callbacks: DialectCallbacks,
  options: DialectOptions = {},
): DialectDecoder {
  const s = new ResponsesStream(callbacks, options.readShapes !== false);

  function push(frame: Frame): void {
    const ctx = s.contextOf(frame);
    if (s.readShapes && s.recent.read(frame.data)) {
      // The next text delta of the part the last one was for, read without JSON.parse: decoded
      // as that one was, while its part is still open and nothing it decoded to changed.
      const decoded = s.recent.meaning as DecodedDelta;
      const part = decoded.part;
      if (
        s.parts.get(part.key) === part &&
        !part.done &&
        part.deltaEvent === decoded.unified &&
        decoded.responseId === s.messageId
      ) {
        s.events++;
        s.sequences.check(ctx, decoded.type, s.recent.sequence);
        return streamText(s, ctx, part, s.recent.text);
      }
    }
    const event = readWireEvent(ctx, 'OpenAI Responses');
    s.events++;
    if (!event) return;
    const type = event['type'] as string;
    // A response numbers its events from its own response.created: a new one starts again.
    if (type === 'response.created') s.sequences.restart();
    s.sequences.check(ctx, type, integerField(event, 'sequence_number'));
    decode(ctx, type, event);
  }

  function decode(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const textDelta = TEXT_DELTAS.get(type);
    if (textDelta) return textEvent(s, ctx, type, event, textDelta, false);
    if (LIFECYCLE.has(type)) return lifecycle(s, ctx, type, event);
    if (TERMINAL.has(type)) return terminal(s, ctx, type, event);
    switch (type) {
      case 'error':
        return apiError(s, ctx, event);
      case 'response.output_item.added':
        return itemAdded(s, ctx, event);
      case 'response.output_item.done':
        return itemDone(s, ctx, event);
      case 'response.content_part.added':
      case 'response.reasoning_summary_part.added':
        return partAdded(s, ctx, type, event);
      case 'response.content_part.done':
      case 'response.reasoning_summary_part.done':
        return partDone(s, ctx, type, event);
      case 'response.output_text.annotation.added':
        return annotation(s, ctx, event);
      case 'response.image_generation_call.partial_image':
        return resultEvent(s, ctx, type, event, 'image_generation', 'partial_image', 'generating');
      case 'response.shell_call_output_content.delta':
        return resultEvent(s, ctx, type, event, 'shell', 'shell_output', 'in_progress');
      case 'response.shell_call_output_content.done':
        return resultEvent(s, ctx, type, event, 'shell', 'shell_output', 'completed');
    }
    const dot = type.lastIndexOf('.');
    const prefix = type.slice(0, dot);
    const suffix = type.slice(dot + 1);
    const text = TEXT_STREAMS[prefix];
    if (text && (suffix === 'delta' || suffix === 'done'))
      return textEvent(s, ctx, type, event, text, suffix === 'done');
    const input = INPUT_STREAMS[prefix];
    // A shell command's `.added` starts it with its first text (empty): read as a delta of it.
    if (input && (suffix === 'delta' || suffix === 'done' || suffix === 'added'))
      return inputEvent(s, ctx, type, event, input, suffix === 'done');
    const call = prefix.startsWith('response.') ? prefix.slice('response.'.length) : '';
    if (STATUS_CALLS.has(call)) return statusEvent(s, ctx, type, event, call, suffix);
    if (AUDIO.has(type)) return audioEvent(s, ctx, type, event, suffix);
    s.reportUnknown(
      ctx,
      type,
      `Event ${ctx.frame.seq} has type ${jsonText(type)}, which this version does not know; kept as a provider event.`,
    );
    ctx.wire(type, event);
  }

  return {
    id: 'openai-responses',
    push,
    end() {
      s.parts.endMessage('before the stream ended');
      s.items.endMessage('before the stream ended');
      s.endStream('response.completed, response.failed or response.incomplete');
      if (s.waiting && s.lastFrame) pauseOnClientCalls(s.contextFor(s.lastFrame), s.waiting);
    },
  };
}
