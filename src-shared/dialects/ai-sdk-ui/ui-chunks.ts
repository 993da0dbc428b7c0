import { jsonText } from '../../json/tree';
import type { Frame } from '../../sse/types';
import { eventFields, readWireEvent, stringField, type WireEvent } from '../provider/event-context';
import type { AiSdkMessage } from './message';
import type { ToolFlags } from './tool-calls';
import { TextDeltaReader } from './text-delta';
import { isUiChunkType } from './vocabulary';

/**
 * The UI message stream (AI SDK 5 and later): one JSON chunk per SSE event, read into the
 * message's operations (message.ts). A chunk that lacks a field its type requires is kept as a
 * provider event and reported, never half-applied.
 */

/** The string fields each chunk type requires (the SDK's chunk schema). */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  'text-start': ['id'],
  'text-delta': ['id', 'delta'],
  'text-end': ['id'],
  'reasoning-start': ['id'],
  'reasoning-delta': ['id', 'delta'],
  'reasoning-end': ['id'],
  'tool-input-start': ['toolCallId', 'toolName'],
  'tool-input-delta': ['toolCallId', 'inputTextDelta'],
  'tool-input-available': ['toolCallId', 'toolName'],
  'tool-input-error': ['toolCallId', 'toolName', 'errorText'],
  'tool-output-available': ['toolCallId'],
  'tool-output-error': ['toolCallId', 'errorText'],
  'tool-output-denied': ['toolCallId'],
  'tool-approval-request': ['approvalId', 'toolCallId'],
  'source-url': ['sourceId', 'url'],
  'source-document': ['sourceId', 'mediaType', 'title'],
  file: ['url', 'mediaType'],
  error: ['errorText'],
};

export class UiChunkReader {
  private readonly unknownReported = new Set<string>();
  private readonly fast: TextDeltaReader;

  /** `readShapes` false: every chunk through JSON.parse (DialectOptions.readShapes). */
  constructor(
    private readonly message: AiSdkMessage,
    readShapes = true,
  ) {
    this.fast = new TextDeltaReader(readShapes);
  }

  read(frame: Frame): void {
    const { message } = this;
    const ctx = message.at(frame);
    const fast = this.fast;
    if (!message.afterFinish && fast.read(frame.data)) {
      // A text or reasoning delta of an open part in the SDK's own compact form: decoded as
      // below, without JSON.parse (most events of a stream are these).
      const texts = message.texts;
      const last = texts.last;
      if (last !== undefined && last.kind === fast.kind && last.id === fast.id && texts.isOpen(last))
        return texts.stream(last, fast.delta);
      const open = texts.find(fast.kind, fast.id);
      if (open) return texts.stream(open, fast.delta);
    }
    const event = readWireEvent(ctx, 'AI SDK UI message stream');
    if (!event) return;
    const type = event['type'] as string;
    message.checkAfterFinish(type, type === 'start');
    const missing = missingFields(type, event);
    if (missing.length > 0) {
      ctx.report(
        'provider.invalid-event',
        `Event ${frame.seq} (${type}) lacks its string field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, so a frontend cannot apply it; kept as a provider event.`,
      );
      ctx.wire(type, event);
      return;
    }
    this.decode(type, event);
  }

  private decode(type: string, event: WireEvent): void {
    const { message } = this;
    switch (type) {
      case 'start':
        return message.start(type, event, stringField(event, 'messageId'), event['messageMetadata']);
      case 'finish-step':
        message.texts.finishStep();
        return message.step(type, event, type);
      case 'start-step':
        return message.step(type, event, type);
      case 'text-start':
      case 'reasoning-start':
        message.texts.start(textKind(type), stringField(event, 'id'), type);
        return;
      case 'text-delta':
      case 'reasoning-delta':
        return message.texts.delta(textKind(type), stringField(event, 'id'), stringField(event, 'delta'), type, event);
      case 'text-end':
      case 'reasoning-end':
        return message.texts.end(textKind(type), stringField(event, 'id'), type, event);
      case 'tool-input-start':
        return message.tools.start(
          stringField(event, 'toolCallId'),
          stringField(event, 'toolName'),
          flagsOf(event),
          type,
          event,
        );
      case 'tool-input-delta':
        return message.tools.delta(stringField(event, 'toolCallId'), stringField(event, 'inputTextDelta'), type, event);
      case 'tool-input-available':
        return message.tools.available(
          stringField(event, 'toolCallId'),
          stringField(event, 'toolName'),
          event['input'],
          flagsOf(event),
          type,
        );
      case 'tool-input-error':
        return message.tools.inputError(
          stringField(event, 'toolCallId'),
          stringField(event, 'toolName'),
          event['input'],
          stringField(event, 'errorText'),
          flagsOf(event),
          type,
        );
      case 'tool-output-available':
        return message.tools.output(
          stringField(event, 'toolCallId'),
          event['output'],
          event['providerExecuted'] === true,
          event['preliminary'] === true,
          type,
          event,
        );
      case 'tool-output-error':
        return message.tools.outputError(
          stringField(event, 'toolCallId'),
          stringField(event, 'errorText'),
          false,
          event['providerExecuted'] === true,
          type,
          event,
        );
      case 'tool-output-denied':
        return message.tools.outputError(stringField(event, 'toolCallId'), 'denied', true, false, type, event);
      case 'tool-approval-request':
        return message.tools.approval(stringField(event, 'toolCallId'), stringField(event, 'approvalId'), type, event);
      case 'source-url':
      case 'source-document':
        return message.content(type, eventFields(event), { source_id: stringField(event, 'sourceId') }, event);
      case 'file':
        return message.content(type, eventFields(event), { media_type: stringField(event, 'mediaType') }, event);
      case 'message-metadata':
        return message.metadataPart(type, event, event['messageMetadata']);
      case 'finish':
        return message.finish(type, event, {
          reason: typeof event['finishReason'] === 'string' ? event['finishReason'] : undefined,
          metadata: event['messageMetadata'],
        });
      case 'abort':
        return message.abort(type, event, stringField(event, 'reason'));
      case 'error':
        return message.error(type, event, stringField(event, 'errorText'));
    }
    if (isUiChunkType(type)) return this.dataPart(type, event);
    if (!this.unknownReported.has(type)) {
      this.unknownReported.add(type);
      message.ctx.report(
        'provider.unknown-event',
        `Event ${message.ctx.frame.seq} has type ${jsonText(type)}, which is not a UI message stream chunk this version knows; kept as a provider event. Later ones are not reported again.`,
      );
    }
    message.ctx.wire(type, event);
  }

  /** An application's `data-<name>` part: a block of that type; a transient one is not kept in the message. */
  private dataPart(type: string, event: WireEvent): void {
    const id = stringField(event, 'id');
    const transient = event['transient'] === true;
    this.message.content(
      type,
      event['data'] ?? null,
      { ...(id !== '' ? { id } : {}), ...(transient ? { transient } : {}) },
      transient ? null : { type, ...(id !== '' ? { id } : {}), data: event['data'] },
    );
  }
}

const NONE_MISSING: readonly string[] = [];

/** The string fields the chunk's type requires that it lacks (one shared empty list when none is: the usual case, every event). */
function missingFields(type: string, event: WireEvent): readonly string[] {
  const required = REQUIRED[type];
  if (required === undefined) return NONE_MISSING;
  let missing: string[] | undefined;
  for (let i = 0; i < required.length; i++) {
    const field = required[i] as string;
    if (typeof event[field] !== 'string') (missing ??= []).push(field);
  }
  return missing ?? NONE_MISSING;
}

const textKind = (type: string): 'text' | 'reasoning' => (type.startsWith('text') ? 'text' : 'reasoning');

function flagsOf(event: WireEvent): ToolFlags {
  return { providerExecuted: event['providerExecuted'] === true, dynamic: event['dynamic'] === true };
}
