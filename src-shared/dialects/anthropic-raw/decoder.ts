import type { RuleId } from '../../diagnostics/rules';
import type { DiagnosticLocation } from '../../diagnostics/types';
import type { Frame } from '../../sse/types';
import { errorMessage, isJsonObject, jsonKind, parseJson } from '../../json/values';
import { previewText } from '../../text/preview';
import { createBlockTracker, type StartedBlock } from '../block-tracker';
import { createXmlItemDecoder, type XmlItemDecoder } from '../legacy-xml/decoder';
import { type DialectCallbacks, type DialectDecoder, type DialectOptions } from '../types';
import { NO_EXTRAS, undecodedParts, type EnvelopeInit } from '../../envelope/types';
import { KIND, type EnvelopeKind } from '../../envelope/vocabulary';
import {
  citationEnvelopeParts,
  eventFields,
  isServerToolResultType,
  KNOWN_DELTA_TYPES,
  PROVIDER_LIFECYCLE_EVENTS,
  STREAMED_BLOCK_TYPES,
  TOOL_CALL_TYPES,
} from './stream-events';
import { stringifyJson } from '../../json/tree';

/** A content block between its content_block_start and content_block_stop. */
interface OpenBlock extends StartedBlock {
  type: string;
  id: string;
  name: string;
  toolUseId: string;
  /** The start event's `content` (server tool results carry it there). */
  content: unknown;
  /** input_json_delta fragments, joined at the stop. */
  input: string[];
}

type Event = Record<string, unknown>;
type EnvelopeParts = Omit<EnvelopeInit, 'frame' | 'agent'>;

const OPEN_BRACE = 0x7b;

/**
 * The raw wire dialect (docs/protocols/upstream-protocol.md §6): Anthropic Messages stream events as JSON
 * lines, mixed with the agent layer's XML items (meta_init, tool_result,
 * awaiting_frontend_tools, meta_files, meta_final), which go to the XML item decoder.
 * Events map to the envelopes the upstream JSON formatter derives from the same events:
 * text/thinking deltas as they come and an empty final marker at the stop, citations from
 * the stop event's accumulated block, tool inputs buffered into one tool_call at the stop,
 * `*_tool_result` blocks as server_tool_result named by block type. Every other event
 * (message_start/delta/stop, ping, input_json and signature deltas, starts of non-text
 * blocks) becomes a `provider-event` control envelope so the timeline shows it.
 *
 * Where the result cannot equal the JSON dialect byte for byte: a tool call's delta is the
 * input re-serialised compactly (upstream's Python `json.dumps` puts a space after "," and
 * ":"), and a server tool result's delta is the structured JSON of the block content
 * (upstream serialises the SDK objects' Python repr). Compare those by parsed value.
 *
 * Block indexes restart at 0 with every API call (every message_start); items carry no
 * agent, so envelopes are stamped with the root agent's meta_init uuid, else `defaultAgent`.
 */
export function createAnthropicRawDecoder(callbacks: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  const xml = createXmlItemDecoder(callbacks, { ...options, expectedFormat: 'raw' });
  const blocks = createBlockTracker<number, OpenBlock>(reportNotStopped);
  const unknownReported = new Set<string>();

  function push(frame: Frame): void {
    if (frame.data.charCodeAt(0) !== OPEN_BRACE) {
      xml.push(frame);
      return;
    }
    const ctx = new EventItem(frame, callbacks, xml);

    // JSON.parse itself, not parseJson: no result object per event.
    let value: unknown;
    try {
      value = JSON.parse(frame.data);
    } catch (error) {
      ctx.report(
        'json.invalid',
        `Event ${frame.seq} starts like an Anthropic event but is not valid JSON (${errorMessage(error)}); kept undecoded: ${previewText(frame.data)}`,
      );
      ctx.emit(undecodedParts(frame));
      return;
    }
    const type = isJsonObject(value) ? value['type'] : undefined;
    if (!isJsonObject(value) || typeof type !== 'string') {
      ctx.report(
        'raw.unknown-event',
        `Event ${frame.seq} is a JSON ${jsonKind(value)} without a string "type", so it is no Anthropic stream event; kept undecoded: ${previewText(frame.data)}`,
      );
      ctx.emit(undecodedParts(frame));
      return;
    }
    decodeEvent(ctx, type, value);
  }

  function decodeEvent(ctx: EventContext, type: string, event: Event): void {
    switch (type) {
      case 'message_start':
        abandonOpenBlocks(ctx.frame.seq);
        providerEvent(ctx, type, event);
        return;
      case 'content_block_start':
        startBlock(ctx, event);
        return;
      case 'content_block_delta':
        blockDelta(ctx, event);
        return;
      case 'content_block_stop':
        stopBlock(ctx, event);
        return;
      case 'error':
        // What the JSON formatter makes of it (unreachable through the SDK, §2 #10, but a capture of the API itself has it).
        ctx.emit({ type: KIND.error, final: true, delta: stringifyJson(event['error'] ?? event) ?? '', extras: {} });
        return;
      default:
        if (!PROVIDER_LIFECYCLE_EVENTS.has(type))
          reportUnknown(
            ctx,
            type,
            `Event ${ctx.frame.seq} has type ${JSON.stringify(type)}, which is not an Anthropic stream event type; kept as a provider event.`,
          );
        providerEvent(ctx, type, event);
    }
  }

  function startBlock(ctx: EventContext, event: Event): void {
    const index = blockIndex(ctx, event);
    if (index === null) return;
    const block = isJsonObject(event['content_block']) ? event['content_block'] : {};
    const blockType = stringField(block, 'type');
    const previous = blocks.start(index, {
      type: blockType,
      frame: ctx.frame.seq,
      at: ctx.at,
      id: stringField(block, 'id'),
      name: stringField(block, 'name'),
      toolUseId: stringField(block, 'tool_use_id'),
      content: block['content'],
      input: [],
    });
    if (previous) {
      ctx.report(
        'raw.index-mismatch',
        `content_block_start in event ${ctx.frame.seq} starts block ${index} again while the ${previous.type} block started in event ${previous.frame} has not stopped; the new block replaces it.`,
      );
    }
    if (STREAMED_BLOCK_TYPES.has(blockType)) {
      ctx.emit({ type: blockType, final: false, delta: '', extras: { index }, control: 'block-open' });
    } else {
      providerEvent(ctx, 'content_block_start', event);
    }
  }

  function blockDelta(ctx: EventContext, event: Event): void {
    const block = openBlock(ctx, event);
    if (!block) return;
    const delta = isJsonObject(event['delta']) ? event['delta'] : {};
    const deltaType = stringField(delta, 'type');
    // The delta's field and the envelope type share a spelling: typed by the envelope table, read from the wire.
    const streamed: EnvelopeKind | null =
      deltaType === 'text_delta' ? 'text' : deltaType === 'thinking_delta' ? 'thinking' : null;
    if (streamed !== null) {
      const text = delta[streamed];
      // Empty deltas are skipped by the JSON formatter; the event still shows as a provider event.
      if (typeof text === 'string' && text !== '') {
        ctx.emit({ type: streamed, final: false, delta: text, extras: NO_EXTRAS });
        return;
      }
    } else if (deltaType === 'input_json_delta') {
      const partial = delta['partial_json'];
      if (typeof partial !== 'string') return providerEvent(ctx, 'content_block_delta', event);
      block.input.push(partial);
      // The row shows the argument text; the call's envelope at the stop carries it joined.
      return providerEvent(ctx, 'content_block_delta', event, partial);
    } else if (!KNOWN_DELTA_TYPES.has(deltaType)) {
      reportUnknown(
        ctx,
        `delta:${deltaType}`,
        `content_block_delta in event ${ctx.frame.seq} has delta type ${JSON.stringify(deltaType)}, which is not a known Anthropic delta type; kept as a provider event.`,
      );
    }
    providerEvent(ctx, 'content_block_delta', event);
  }

  function stopBlock(ctx: EventContext, event: Event): void {
    const block = openBlock(ctx, event);
    if (!block) return;
    blocks.stop(numberIndex(event) ?? -1);
    const accumulated = isJsonObject(event['content_block']) ? event['content_block'] : {};
    if (STREAMED_BLOCK_TYPES.has(block.type)) {
      ctx.emit({ type: block.type, final: true, delta: '', extras: NO_EXTRAS });
      if (block.type === 'text') emitCitations(ctx, accumulated['citations']);
      return;
    }
    const callType = TOOL_CALL_TYPES.get(block.type);
    if (callType !== undefined) {
      ctx.emit({
        type: callType,
        final: true,
        delta: toolInputPayload(block.input.join('')),
        extras: { id: block.id, name: block.name },
      });
      return;
    }
    if (isServerToolResultType(block.type)) {
      const content = 'content' in accumulated ? accumulated['content'] : block.content;
      const delta =
        content === undefined || content === null
          ? ''
          : typeof content === 'string'
            ? content
            : (stringifyJson(content) ?? '');
      ctx.emit({
        type: KIND.server_tool_result,
        final: true,
        delta,
        extras: { id: block.toolUseId, name: block.type },
      });
      return;
    }
    providerEvent(ctx, 'content_block_stop', event);
  }

  function emitCitations(ctx: EventContext, citations: unknown): void {
    if (!Array.isArray(citations)) return;
    const list = citations.filter(isJsonObject);
    list.forEach((citation, i) => {
      const { delta, extras } = citationEnvelopeParts(citation);
      ctx.emit({ type: KIND.citation, final: i === list.length - 1, delta, extras });
    });
  }

  /** The block a delta or stop event refers to; reports and shows the event when there is none. */
  function openBlock(ctx: EventContext, event: Event): OpenBlock | null {
    const index = blockIndex(ctx, event);
    if (index === null) return null;
    const block = blocks.get(index);
    if (!block) {
      const kind = stringField(event, 'type');
      ctx.report(
        'raw.index-mismatch',
        `${kind} in event ${ctx.frame.seq} refers to block ${index}, which no content_block_start of this API call opened (or which already stopped); kept as a provider event.`,
      );
      providerEvent(ctx, kind, event);
      return null;
    }
    return block;
  }

  function blockIndex(ctx: EventContext, event: Event): number | null {
    const index = numberIndex(event);
    if (index !== null) return index;
    const kind = stringField(event, 'type');
    ctx.report(
      'raw.index-mismatch',
      `${kind} in event ${ctx.frame.seq} has no integer index (${previewText(stringifyJson(event['index']) ?? 'missing')}); kept as a provider event.`,
    );
    providerEvent(ctx, kind, event);
    return null;
  }

  /** A retried API call restarts with message_start while the cut call's blocks are still open. */
  function abandonOpenBlocks(frame: number): void {
    blocks.endMessage(
      `before the next message_start (event ${frame}): the API call was cut and retried, and the retry streams its blocks again`,
    );
  }

  function reportNotStopped(index: number, block: OpenBlock, why: string): void {
    callbacks.onDiagnostic({
      rule: 'raw.block-not-stopped',
      message: `The ${block.type || 'untyped'} block ${index} started in event ${block.frame} got no content_block_stop ${why}.${TOOL_CALL_TYPES.has(block.type) ? ' Its buffered input was never emitted as a tool call.' : ''}`,
      at: block.at,
    });
  }

  function reportUnknown(ctx: EventContext, key: string, message: string): void {
    if (unknownReported.has(key)) return;
    unknownReported.add(key);
    ctx.report('raw.unknown-event', `${message} Later ones are not reported again.`);
  }

  return {
    id: 'raw',
    push,
    end() {
      blocks.endMessage('before the stream ended');
      xml.end();
    },
  };
}

/**
 * One event being decoded: methods, not closures per event. Defined once, not per decoder: a
 * class made by each decoder gives each session's events a map of their own, and the code
 * optimised for the previous session's events is thrown away at the next one's first event.
 * Fields are declared, not initialised as class fields: [[Define]] semantics (ES2022 class
 * fields) run an initializer per instance that costs more than the whole event's decoding in
 * Node 20's V8.
 */
class EventItem implements EventContext {
  declare readonly frame: Frame;
  declare readonly callbacks: DialectCallbacks;
  /** The XML item decoder of the same stream, which knows the agent to stamp. */
  declare readonly xml: XmlItemDecoder;

  constructor(frame: Frame, callbacks: DialectCallbacks, xml: XmlItemDecoder) {
    this.frame = frame;
    this.callbacks = callbacks;
    this.xml = xml;
  }

  /** Where the event is: made when a finding or a block asks, not for every event. */
  get at(): DiagnosticLocation {
    return { frame: this.frame.seq, byteStart: this.frame.byteStart, byteEnd: this.frame.byteEnd };
  }

  report(rule: RuleId, message: string): void {
    this.callbacks.onDiagnostic({ rule, message, at: this.at });
  }

  // Fields named one by one, not spread: a spread of objects of varying shapes is slow in V8.
  emit(parts: EnvelopeParts): void {
    this.callbacks.onEnvelope({
      frame: this.frame.seq,
      agent: this.xml.agent(),
      type: parts.type,
      final: parts.final,
      delta: parts.delta,
      extras: parts.extras,
      control: parts.control,
    });
  }
}

interface EventContext {
  frame: Frame;
  at: DiagnosticLocation;
  report: (rule: RuleId, message: string) => void;
  emit: (parts: EnvelopeParts) => void;
}

function providerEvent(ctx: EventContext, type: string, event: Event, delta = ''): void {
  ctx.emit({ type, final: true, delta, extras: eventFields(event), control: 'provider-event' });
}

function numberIndex(event: Event): number | null {
  const index = event['index'];
  return typeof index === 'number' && Number.isInteger(index) ? index : null;
}

function stringField(object: Record<string, unknown>, key: string): string {
  const value = object[key];
  return typeof value === 'string' ? value : '';
}

/**
 * The tool_call delta the JSON formatter builds from the streamed input: `{}` when nothing
 * streamed, the parsed input re-serialised, or — when the input does not parse — the raw
 * text as a JSON string literal.
 */
function toolInputPayload(input: string): string {
  if (input === '') return '{}';
  const parsed = parseJson(input);
  return stringifyJson(parsed.ok ? parsed.value : input) ?? '';
}
