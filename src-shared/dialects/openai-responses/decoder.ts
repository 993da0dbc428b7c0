import { unified, type DeltaKind, type StreamIds, type UnifiedEvent, type UnifiedTool } from '../../envelope/unified';
import type { Frame } from '../../sse/types';
import { createBlockTracker, type StartedBlock } from '../block-tracker';
import {
  integerField,
  objectField,
  ProviderEventContext,
  readWireEvent,
  stringField,
  type WireEvent,
} from '../provider/event-context';
import { NO_EXTRAS } from '../../envelope/types';
import { KIND } from '../../envelope/vocabulary';
import { MessageClock } from '../provider/message-summary';
import { MessageSequence } from '../provider/message-sequence';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';
import { jsonText } from '../../json/tree';
import { RecentTextDelta } from './recent-delta';
import { checkAnnotations, isSameDelta, partKey, type DecodedDelta, type OpenPart } from './content-parts';
import { emitItem, toolOf, type OpenItem } from './item-blocks';
import { SequenceNumbers } from './sequence-numbers';
import { recordTerminalOutcome } from './terminal-outcome';
import {
  AUDIO,
  INPUT_STREAMS,
  KNOWN_ITEMS,
  LIFECYCLE,
  PART_TYPES,
  STATUS_CALLS,
  TERMINAL,
  TEXT_DELTAS,
  TEXT_STREAMS,
} from './vocabulary';

/**
 * The OpenAI Responses API stream (docs/protocols/provider-events.md): `event:` + `data:`
 * frames, each with a `sequence_number`, ending at response.completed, .failed or
 * .incomplete (or a top-level `error`). Output text, refusals, reasoning text and reasoning
 * summaries become streamed envelopes of their own types; annotations become citations of
 * the text; function, custom and MCP calls are buffered into one call envelope at the
 * item's done (arguments checked to parse); built-in tools become a server tool call with
 * its status phases and a server tool result (generated images attach to it). Every other
 * event is shown as a provider event; each envelope carries the event's unified form, and a
 * `message` envelope sums the response up at its terminal event.
 */
export function createOpenAiResponsesDecoder(
  callbacks: DialectCallbacks,
  options: DialectOptions = {},
): DialectDecoder {
  const notStopped = (what: string) => (key: string | number, block: StartedBlock & { type: string }, why: string) =>
    callbacks.onDiagnostic({
      rule: 'provider.block-not-stopped',
      message: `The ${block.type || 'untyped'} ${what} ${key} added in event ${block.frame} got no done event ${why}.`,
      at: block.at,
    });
  const items = createBlockTracker<number, OpenItem>(notStopped('output item'));
  const parts = createBlockTracker<string, OpenPart>(notStopped('part'));
  const unknownReported = new Set<string>();
  let response: MessageClock | undefined;
  let responseId = '';
  const sequences = new SequenceNumbers();
  let events = 0;
  const responses = new MessageSequence(callbacks, {
    message: 'response',
    start: 'response.created',
    terminal: 'response.completed, .failed or .incomplete',
  });
  let lastFrame: Frame | undefined;
  const recent = new RecentTextDelta<DecodedDelta>();
  const readShapes = options.readShapes !== false;
  let eventContext: ProviderEventContext | undefined;

  function push(frame: Frame): void {
    lastFrame = frame;
    const ctx = (eventContext ??= new ProviderEventContext(frame, callbacks, responseId)).next(frame, responseId);
    if (readShapes && recent.read(frame.data)) {
      // The next text delta of the part the last one was for, read without JSON.parse: decoded
      // as that one was, while its part is still open and nothing it decoded to changed.
      const decoded = recent.meaning as DecodedDelta;
      const part = decoded.part;
      if (
        parts.get(part.key) === part &&
        !part.done &&
        part.deltaEvent === decoded.unified &&
        decoded.responseId === responseId
      ) {
        events++;
        sequences.check(ctx, decoded.type, recent.sequence);
        return streamText(ctx, part, recent.text);
      }
    }
    const event = readWireEvent(ctx, 'OpenAI Responses');
    events++;
    if (!event) return;
    const type = event['type'] as string;
    // A response numbers its events from its own response.created: a new one starts again.
    if (type === 'response.created') sequences.restart();
    sequences.check(ctx, type, integerField(event, 'sequence_number'));
    decode(ctx, type, event);
  }

  function ids(event: WireEvent, extra: StreamIds = {}): StreamIds {
    return {
      response_id: responseId,
      item_id: stringField(event, 'item_id') || undefined,
      output_index: integerField(event, 'output_index'),
      content_index: integerField(event, 'content_index') ?? integerField(event, 'summary_index'),
      ...extra,
    };
  }

  function decode(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const textDelta = TEXT_DELTAS.get(type);
    if (textDelta) return textEvent(ctx, type, event, textDelta, false);
    if (LIFECYCLE.has(type)) return lifecycle(ctx, type, event);
    if (TERMINAL.has(type)) return terminal(ctx, type, event);
    switch (type) {
      case 'error':
        return apiError(ctx, event);
      case 'response.output_item.added':
        return itemAdded(ctx, event);
      case 'response.output_item.done':
        return itemDone(ctx, event);
      case 'response.content_part.added':
      case 'response.reasoning_summary_part.added':
        return partAdded(ctx, type, event);
      case 'response.content_part.done':
      case 'response.reasoning_summary_part.done':
        return partDone(ctx, type, event);
      case 'response.output_text.annotation.added':
        return annotation(ctx, event);
      case 'response.image_generation_call.partial_image':
        return ctx.wire(
          type,
          event,
          unified('stream.tool_call_result', ids(event, { tool_call_id: stringField(event, 'item_id') }), {
            kind: 'partial_image',
            tool: { kind: 'builtin', builtin: 'image_generation' },
            phase: 'generating',
          }),
        );
    }
    const dot = type.lastIndexOf('.');
    const prefix = type.slice(0, dot);
    const suffix = type.slice(dot + 1);
    const text = TEXT_STREAMS[prefix];
    if (text && (suffix === 'delta' || suffix === 'done')) return textEvent(ctx, type, event, text, suffix === 'done');
    const inputField = INPUT_STREAMS[prefix];
    if (inputField && (suffix === 'delta' || suffix === 'done'))
      return inputEvent(ctx, type, event, suffix === 'done' ? inputField : undefined);
    const call = prefix.startsWith('response.') ? prefix.slice('response.'.length) : '';
    if (STATUS_CALLS.has(call)) return statusEvent(ctx, type, event, call, suffix);
    if (AUDIO.has(type)) {
      const transcript = type.includes('transcript');
      return ctx.wire(
        type,
        event,
        unified(suffix === 'delta' ? 'stream.content_block_delta' : 'stream.content_block_stop', ids(event), {
          kind: transcript ? 'audio_transcript_delta' : 'audio_delta',
          ...(transcript ? { channel: 'audio_transcript' as const } : {}),
        }),
      );
    }
    reportUnknown(
      ctx,
      type,
      `Event ${ctx.frame.seq} has type ${jsonText(type)}, which this version does not know; kept as a provider event.`,
    );
    ctx.wire(type, event);
  }

  function lifecycle(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const body = objectField(event, 'response');
    if (type === 'response.created' || !response) {
      if (!responses.start(ctx, stringField(body, 'id'), response !== undefined))
        return lifecycleEvent(ctx, type, event);
      if (response) {
        items.endMessage(`before the next response.created (event ${ctx.frame.seq})`);
        parts.endMessage(`before the next response.created (event ${ctx.frame.seq})`);
        response.status = 'cut';
        emitSummary(ctx);
      }
      responseId = stringField(body, 'id');
      response = new MessageClock(ctx.frame.receivedAt);
      response.id = responseId;
    }
    response.model = stringField(body, 'model') || response.model;
    response.status = stringField(body, 'status') || response.status;
    lifecycleEvent(ctx, type, event);
  }

  function lifecycleEvent(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const family = type === 'response.created' ? 'stream.message_start' : 'stream.message_delta';
    new ProviderEventContext(ctx.frame, callbacks, responseId).wire(
      type,
      event,
      unified(family, { response_id: responseId }, { phase: type.slice('response.'.length) }),
    );
  }

  function terminal(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    responses.end(ctx);
    const body = objectField(event, 'response');
    if (!response) {
      responseId = stringField(body, 'id');
      response = new MessageClock(0);
      response.id = responseId;
    }
    const end = new ProviderEventContext(ctx.frame, callbacks, responseId);
    const failure = recordTerminalOutcome(response, type, body, end);
    if (type === 'response.completed') {
      items.endMessage(`before ${type} (event ${ctx.frame.seq})`);
      parts.endMessage(`before ${type} (event ${ctx.frame.seq})`);
    } else {
      // Reported as a failed or incomplete response already; its open items are cut short.
      items.discardMessage();
      parts.discardMessage();
    }
    const phase = type.slice('response.'.length);
    callbacks.onStreamEnd?.(failure === undefined ? { event: type } : { event: type, error: failure });
    end.wire(
      type,
      event,
      unified(
        'stream.message_stop',
        { response_id: responseId },
        { phase, stop_reason: response.stopReason, usage: response.usage, error: body['error'] ?? undefined },
      ),
    );
    emitSummary(end);
  }

  function apiError(ctx: ProviderEventContext, event: WireEvent): void {
    responses.end(ctx);
    const first = events === 1 ? ' as the first event' : '';
    const code = stringField(event, 'code');
    callbacks.onStreamEnd?.({
      event: 'error',
      error: `${code || 'error'}: ${stringField(event, 'message') || jsonText(event)}`,
    });
    ctx.report(
      'provider.api-error',
      `The API sent an error${code ? ` (${code})` : ''}${first}: ${stringField(event, 'message') || jsonText(event)}`,
    );
    const { type: _type, ...error } = event;
    ctx.emit(
      { type: KIND.error, final: true, delta: jsonText(error), extras: {} },
      unified('stream.error', { response_id: responseId }, { error, phase: 'failed' }),
    );
    if (response) {
      response.status = 'failed';
      response.error = error;
      emitSummary(ctx);
    }
  }

  function emitSummary(ctx: ProviderEventContext): void {
    if (!response) return;
    ctx.emit({
      type: KIND.message,
      final: true,
      delta: jsonText(response.summary(ctx.frame.receivedAt)),
      extras: { id: response.id },
    });
    response = undefined;
  }

  function itemAdded(ctx: ProviderEventContext, event: WireEvent): void {
    const index = integerField(event, 'output_index');
    const item = objectField(event, 'item');
    const itemType = stringField(item, 'type');
    if (index === undefined)
      return notAddressed(ctx, 'response.output_item.added', event, 'has no integer output_index');
    const open: OpenItem = {
      type: itemType,
      id: stringField(item, 'id'),
      name: stringField(item, 'name'),
      callId: stringField(item, 'call_id'),
      frame: ctx.frame.seq,
      at: ctx.at,
      input: [],
      phases: [],
    };
    const previous = items.start(index, open);
    if (previous)
      ctx.report(
        'provider.block-started-twice',
        `response.output_item.added in event ${ctx.frame.seq} adds output item ${index} again while the ${previous.type} item added in event ${previous.frame} is open; the new item replaces it.`,
      );
    if (!KNOWN_ITEMS.has(itemType))
      reportUnknown(
        ctx,
        `item:${itemType}`,
        `response.output_item.added in event ${ctx.frame.seq} adds an item of type ${jsonText(itemType)}, which this version does not know; kept and shown as a block of that type.`,
      );
    const tool = toolOf(open, item);
    const itemIds = ids(event, { item_id: open.id, ...(tool ? { tool_call_id: open.callId || open.id } : {}) });
    ctx.wire(
      'response.output_item.added',
      event,
      tool
        ? unified('stream.tool_call_start', itemIds, { kind: itemType, tool })
        : unified('stream.content_block_start', itemIds, { kind: itemType }),
    );
  }

  function itemDone(ctx: ProviderEventContext, event: WireEvent): void {
    const index = integerField(event, 'output_index');
    const item = objectField(event, 'item');
    if (index === undefined)
      return notAddressed(ctx, 'response.output_item.done', event, 'has no integer output_index');
    const open = items.get(index);
    if (!open) {
      const why = items.state(index) === 'stopped' ? 'was already done' : 'was never added';
      ctx.report(
        items.state(index) === 'stopped' ? 'provider.delta-after-stop' : 'provider.block-not-started',
        `response.output_item.done in event ${ctx.frame.seq} is for output item ${index}, which ${why}; decoded from its item alone.`,
      );
    }
    items.stop(index);
    const itemType = stringField(item, 'type') || open?.type || '';
    const done: OpenItem = open ?? {
      type: itemType,
      id: stringField(item, 'id'),
      name: stringField(item, 'name'),
      callId: stringField(item, 'call_id'),
      frame: ctx.frame.seq,
      at: ctx.at,
      input: [],
      phases: [],
    };
    const tool = toolOf(done, item);
    const status = stringField(item, 'status');
    const itemIds = ids(event, {
      item_id: done.id || stringField(item, 'id'),
      ...(tool ? { tool_call_id: done.callId || done.id } : {}),
    });
    const phase = status === 'failed' || status === 'incomplete' ? status : 'completed';
    ctx.wire(
      'response.output_item.done',
      event,
      tool
        ? unified('stream.tool_call_stop', itemIds, { kind: itemType, tool, phase, error: item['error'] ?? undefined })
        : unified('stream.content_block_stop', itemIds, { kind: itemType }),
    );
    emitItem(ctx, done, item);
  }

  function partAdded(ctx: ProviderEventContext, type: string, event: WireEvent, impliedKey?: string): void {
    const summary = type === 'response.reasoning_summary_part.added';
    const key = impliedKey ?? partKey(event, summary);
    if (key === undefined)
      return notAddressed(
        ctx,
        type,
        event,
        `has no integer output_index and ${summary ? 'summary_index' : 'content_index'}`,
      );
    const part = objectField(event, 'part');
    const partType = stringField(part, 'type') || (summary ? 'summary_text' : '');
    const known = PART_TYPES[partType];
    if (!known)
      reportUnknown(
        ctx,
        `part:${partType}`,
        `${type} in event ${ctx.frame.seq} adds a part of type ${jsonText(partType)}, which this version does not know; kept as a provider event.`,
      );
    const open: OpenPart = {
      key,
      type: partType,
      envelopeType: known?.envelopeType ?? partType,
      channel: known?.channel ?? 'output_text',
      frame: ctx.frame.seq,
      at: ctx.at,
      done: false,
      text: [],
      annotations: [],
    };
    const previous = parts.start(key, open);
    if (previous)
      ctx.report(
        'provider.block-started-twice',
        `${type} in event ${ctx.frame.seq} adds part ${key} again while the ${previous.type} part added in event ${previous.frame} is open; the new part replaces it.`,
      );
    const u = unified('stream.content_block_start', ids(event), {
      kind: partType,
      ...(known ? { channel: known.channel } : {}),
    });
    if (known)
      ctx.emit({ type: known.envelopeType, final: false, delta: '', extras: { part: key }, control: 'block-open' }, u);
    else ctx.wire(type, event, u);
  }

  function partDone(ctx: ProviderEventContext, type: string, event: WireEvent): void {
    const summary = type === 'response.reasoning_summary_part.done';
    const key = partKey(event, summary);
    if (key === undefined) return notAddressed(ctx, type, event, 'has no part indexes');
    const open = addressedPart(ctx, type, event, key);
    parts.stop(key);
    const u = unified('stream.content_block_stop', ids(event), { kind: open?.type, channel: open?.channel });
    if (open && !open.done && PART_TYPES[open.type]) {
      closeText(ctx, open, event, u);
      return;
    }
    ctx.wire(type, event, u);
  }

  function textEvent(
    ctx: ProviderEventContext,
    type: string,
    event: WireEvent,
    stream: { part: string; kind: DeltaKind; doneField: string },
    done: boolean,
  ): void {
    const summary = stream.part === 'summary_text';
    const indexed = partKey(event, summary);
    // Text without part indexes (a proxy's or a hand-trimmed stream) is kept all the same, in a part of its item.
    const key = indexed ?? `${stringField(event, 'item_id') || '(no item)'}:${summary ? 's' : ''}`;
    let open = parts.get(key);
    const implied = stream.part === 'reasoning_text' || !parts.anyOpen();
    if (!open && parts.state(key) === 'unknown' && implied) {
      // Reasoning text may stream without a content_part.added of its own: the first delta
      // opens it. Any other text whose part was never added is reported, and kept in a part
      // of its own (not while another part is open: a stray delta inside it stays a provider event).
      if (stream.part !== 'reasoning_text') {
        const where = indexed === undefined ? 'has no part indexes' : `is for part ${key}, which was never added`;
        ctx.report(
          'provider.block-not-started',
          `${type} in event ${ctx.frame.seq} ${where}; its text is kept in a ${PART_TYPES[stream.part]?.envelopeType ?? stream.part} block of its own.`,
        );
      }
      partAdded(
        ctx,
        summary ? 'response.reasoning_summary_part.added' : 'response.content_part.added',
        { ...event, part: { type: stream.part } },
        key,
      );
      open = parts.get(key);
      if (open && done) streamText(ctx, open, stringField(event, stream.doneField));
    }
    if (!open) {
      addressedPart(ctx, type, event, key);
      return;
    }
    if (open.done) {
      ctx.report(
        'provider.delta-after-stop',
        `${type} in event ${ctx.frame.seq} arrives after its part ${key} was done; kept as a provider event.`,
      );
      ctx.wire(type, event);
      return;
    }
    const channel = PART_TYPES[stream.part]?.channel;
    if (done) {
      if (open.type === 'output_text') checkAnnotations(ctx, open, stringField(event, stream.doneField));
      closeText(ctx, open, event, unified('stream.content_block_stop', ids(event), { kind: open.type, channel }));
      return;
    }
    if (!open.deltaEvent || !isSameDelta(open.deltaEvent, event, stream.kind, channel, responseId))
      open.deltaEvent = unified('stream.content_block_delta', ids(event), { kind: stream.kind, channel });
    streamText(ctx, open, stringField(event, 'delta'));
    recent.learn(ctx.frame.data, decodedDelta(open, type, open.deltaEvent));
  }

  /** What the part's delta of this type decoded to: the same object while nothing in it changes. */
  function decodedDelta(open: OpenPart, type: string, deltaEvent: UnifiedEvent): DecodedDelta {
    const last = open.decoded;
    if (last?.unified === deltaEvent && last.type === type && last.responseId === responseId) return last;
    return (open.decoded = { part: open, type, unified: deltaEvent, responseId });
  }

  /** A text delta of an open part that is not done: streamed content. */
  function streamText(ctx: ProviderEventContext, open: OpenPart, delta: string): void {
    response?.token(ctx.frame.receivedAt);
    if (open.type === 'output_text') open.text.push(delta);
    ctx.envelope(open.envelopeType, false, delta, NO_EXTRAS, undefined, open.deltaEvent);
  }

  function closeText(ctx: ProviderEventContext, open: OpenPart, event: WireEvent, u: ReturnType<typeof unified>): void {
    open.done = true;
    ctx.emit({ type: open.envelopeType, final: true, delta: '', extras: {} }, u);
    void event;
  }

  function annotation(ctx: ProviderEventContext, event: WireEvent): void {
    const key = partKey(event, false);
    const note = objectField(event, 'annotation');
    const open = key === undefined ? undefined : parts.get(key);
    if (open)
      open.annotations.push({
        at: ctx.frame.seq,
        start: integerField(note, 'start_index') ?? integerField(note, 'index'),
        end: integerField(note, 'end_index'),
      });
    else if (key !== undefined && parts.state(key) === 'unknown')
      ctx.report(
        'provider.block-not-started',
        `response.output_text.annotation.added in event ${ctx.frame.seq} annotates part ${key}, which was never added.`,
      );
    const { type: citationType, ...fields } = note;
    const cited =
      stringField(note, 'title') ||
      stringField(note, 'url') ||
      stringField(note, 'filename') ||
      stringField(note, 'file_id');
    const annotationFields: Record<string, unknown> = {
      citation_type: typeof citationType === 'string' ? citationType : 'unknown',
    };
    for (const [name, value] of Object.entries(fields))
      if (value !== null && value !== undefined && name !== '__proto__') annotationFields[name] = value;
    ctx.emit(
      { type: KIND.citation, final: true, delta: cited, extras: annotationFields },
      unified('stream.content_block_delta', ids(event), { kind: 'annotation_added', channel: 'output_text' }),
    );
  }

  function inputEvent(ctx: ProviderEventContext, type: string, event: WireEvent, doneField: string | undefined): void {
    const index = integerField(event, 'output_index');
    const open = index === undefined ? undefined : items.get(index);
    const itemIds = ids(event, { tool_call_id: open ? open.callId || open.id : stringField(event, 'item_id') });
    if (!open) {
      if (index !== undefined && items.state(index) === 'stopped')
        ctx.report(
          'provider.delta-after-stop',
          `${type} in event ${ctx.frame.seq} is for output item ${index}, which was already done; kept as a provider event.`,
        );
      else
        ctx.report(
          'provider.block-not-started',
          `${type} in event ${ctx.frame.seq} is for output item ${index ?? '(none)'}, which was never added; kept as a provider event.`,
        );
      ctx.wire(type, event);
      return;
    }
    const isCode = type.startsWith('response.code_interpreter_call_code');
    if (doneField === undefined) {
      open.input.push(stringField(event, 'delta'));
      response?.token(ctx.frame.receivedAt);
      ctx.wire(
        type,
        event,
        isCode
          ? unified('stream.content_block_delta', itemIds, { kind: 'code_delta' })
          : unified('stream.tool_call_input.delta', itemIds, { kind: 'input_json_delta' }),
      );
      return;
    }
    const complete = event[doneField];
    if (typeof complete === 'string') open.input.splice(0, open.input.length, complete);
    ctx.wire(
      type,
      event,
      isCode
        ? unified('stream.content_block_stop', itemIds, { kind: 'code' })
        : unified('stream.tool_call_status', itemIds, { phase: 'result', kind: 'input_done' }),
    );
  }

  function statusEvent(ctx: ProviderEventContext, type: string, event: WireEvent, call: string, phase: string): void {
    const index = integerField(event, 'output_index');
    const open = index === undefined ? undefined : items.get(index);
    open?.phases.push(phase);
    const tool: UnifiedTool = call.startsWith('mcp')
      ? { kind: 'mcp', name: call }
      : { kind: 'builtin', builtin: call.replace(/_call$/, '') };
    const action = isRecord(event['action']) ? event['action'] : undefined;
    ctx.wire(
      type,
      event,
      unified('stream.tool_call_status', ids(event, { tool_call_id: open?.id ?? stringField(event, 'item_id') }), {
        tool,
        phase,
        action,
      }),
    );
  }

  function addressedPart(ctx: ProviderEventContext, type: string, event: WireEvent, key: string): OpenPart | undefined {
    const open = parts.get(key);
    if (open) return open;
    if (parts.state(key) === 'stopped')
      ctx.report(
        'provider.delta-after-stop',
        `${type} in event ${ctx.frame.seq} is for part ${key}, which was already done; kept as a provider event.`,
      );
    else
      ctx.report(
        'provider.block-not-started',
        `${type} in event ${ctx.frame.seq} is for part ${key}, which was never added; kept as a provider event.`,
      );
    ctx.wire(type, event);
    return undefined;
  }

  function notAddressed(ctx: ProviderEventContext, type: string, event: WireEvent, why: string): void {
    ctx.report(
      'provider.block-not-started',
      `${type} in event ${ctx.frame.seq} ${why}, so it belongs to no item or part; kept as a provider event.`,
    );
    ctx.wire(type, event);
  }

  function reportUnknown(ctx: ProviderEventContext, key: string, text: string): void {
    if (unknownReported.has(key)) return;
    unknownReported.add(key);
    ctx.report('provider.unknown-event', `${text} Later ones are not reported again.`);
  }

  return {
    id: 'openai-responses',
    push,
    end() {
      parts.endMessage('before the stream ended');
      items.endMessage('before the stream ended');
      if (!responses.ended && events > 0 && lastFrame) {
        callbacks.onDiagnostic({
          rule: 'provider.missing-terminal',
          message:
            'The stream ended without response.completed, response.failed or response.incomplete (or an error event): the response was cut off or the connection dropped.',
          at: { byteStart: lastFrame.byteEnd },
        });
        if (response) {
          response.status = 'cut';
          emitSummary(new ProviderEventContext(lastFrame, callbacks, responseId));
        }
      }
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
