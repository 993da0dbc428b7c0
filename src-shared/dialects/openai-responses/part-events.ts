import { unified, type DeltaKind, type UnifiedEvent } from '../../envelope/unified';
import { NO_EXTRAS } from '../../envelope/types';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import {
  integerField,
  objectField,
  stringField,
  type ProviderEventContext,
  type WireEvent,
} from '../provider/event-context';
import { citationExtras } from '../provider/citation-extras';
import { checkAnnotations, isSameDelta, partKey, type DecodedDelta, type OpenPart } from './content-parts';
import type { ResponsesStream } from './stream-state';
import { PART_TYPES } from './vocabulary';

/*
 * The events of content parts: a part (output text, refusal, reasoning text) or reasoning
 * summary part added and done, its text deltas and done text, the annotations of output
 * text (citations), and audio and its transcript.
 */

export function partAdded(
  s: ResponsesStream,
  ctx: ProviderEventContext,
  type: string,
  event: WireEvent,
  impliedKey?: string,
): void {
  const summary = type === 'response.reasoning_summary_part.added';
  const key = impliedKey ?? partKey(event, summary);
  if (key === undefined)
    return s.notAddressed(
      ctx,
      type,
      event,
      `has no integer output_index and ${summary ? 'summary_index' : 'content_index'}`,
    );
  const part = objectField(event, 'part');
  const partType = stringField(part, 'type') || (summary ? 'summary_text' : '');
  const known = PART_TYPES[partType];
  if (!known)
    s.reportUnknown(
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
  const previous = s.parts.start(key, open);
  if (previous)
    ctx.report(
      'provider.block-started-twice',
      `${type} in event ${ctx.frame.seq} adds part ${key} again while the ${previous.type} part added in event ${previous.frame} is open; the new part replaces it.`,
    );
  const u = unified('stream.content_block_start', s.ids(event), {
    kind: partType,
    ...(known ? { channel: known.channel } : {}),
  });
  if (known)
    ctx.emit({ type: known.envelopeType, final: false, delta: '', extras: { part: key }, control: 'block-open' }, u);
  else ctx.wire(type, event, u);
}

export function partDone(s: ResponsesStream, ctx: ProviderEventContext, type: string, event: WireEvent): void {
  const summary = type === 'response.reasoning_summary_part.done';
  const key = partKey(event, summary);
  if (key === undefined) return s.notAddressed(ctx, type, event, 'has no part indexes');
  const open = addressedPart(s, ctx, type, event, key);
  s.parts.stop(key);
  const u = unified('stream.content_block_stop', s.ids(event), { kind: open?.type, channel: open?.channel });
  if (open && !open.done && PART_TYPES[open.type]) {
    closeText(ctx, open, u);
    return;
  }
  ctx.wire(type, event, u);
}

/** A text delta or done event (output text, refusal, reasoning text or summary) of a part. */
export function textEvent(
  s: ResponsesStream,
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
  let open = s.parts.get(key);
  const implied = stream.part === 'reasoning_text' || !s.parts.anyOpen();
  if (!open && s.parts.state(key) === 'unknown' && implied) {
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
      s,
      ctx,
      summary ? 'response.reasoning_summary_part.added' : 'response.content_part.added',
      { ...event, part: { type: stream.part } },
      key,
    );
    open = s.parts.get(key);
    if (open && done) streamText(s, ctx, open, stringField(event, stream.doneField), textExtras(event));
  }
  if (!open) {
    addressedPart(s, ctx, type, event, key);
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
    closeText(ctx, open, unified('stream.content_block_stop', s.ids(event), { kind: open.type, channel }));
    return;
  }
  if (!open.deltaEvent || !isSameDelta(open.deltaEvent, event, stream.kind, channel, s.messageId))
    open.deltaEvent = unified('stream.content_block_delta', s.ids(event), { kind: stream.kind, channel });
  streamText(s, ctx, open, stringField(event, 'delta'), textExtras(event));
  s.recent.learn(ctx.frame.data, decodedDelta(s, open, type, open.deltaEvent));
}

/** What the part's delta of this type decoded to: the same object while nothing in it changes. */
function decodedDelta(s: ResponsesStream, open: OpenPart, type: string, deltaEvent: UnifiedEvent): DecodedDelta {
  const last = open.decoded;
  if (last?.unified === deltaEvent && last.type === type && last.responseId === s.messageId) return last;
  return (open.decoded = { part: open, type, unified: deltaEvent, responseId: s.messageId });
}

/** A text delta of an open part that is not done: streamed content, with what it carries along. */
export function streamText(
  s: ResponsesStream,
  ctx: ProviderEventContext,
  open: OpenPart,
  delta: string,
  extras: Record<string, unknown> = NO_EXTRAS,
): void {
  s.message?.token(ctx.frame.receivedAt);
  if (open.type === 'output_text') open.text.push(delta);
  ctx.envelope(open.envelopeType, false, delta, extras, undefined, open.deltaEvent);
}

/**
 * What a text event carries along: the tokens' logprobs a request asked for (`include:
 * ["message.output_text.logprobs"]`), on its envelope's extras as a Chat Completions delta's
 * are. The empty list every delta has otherwise carries nothing.
 */
function textExtras(event: WireEvent): Record<string, unknown> {
  const logprobs = event['logprobs'];
  return Array.isArray(logprobs) && logprobs.length > 0 ? { logprobs } : NO_EXTRAS;
}

function closeText(ctx: ProviderEventContext, open: OpenPart, u: UnifiedEvent): void {
  open.done = true;
  ctx.emit({ type: open.envelopeType, final: true, delta: '', extras: {} }, u);
}

/** The open part an event is for; reports and shows the event when there is none. */
function addressedPart(
  s: ResponsesStream,
  ctx: ProviderEventContext,
  type: string,
  event: WireEvent,
  key: string,
): OpenPart | undefined {
  const open = s.parts.get(key);
  if (open) return open;
  if (s.parts.state(key) === 'stopped')
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

/** response.output_text.annotation.added: a citation of the part's text. */
export function annotation(s: ResponsesStream, ctx: ProviderEventContext, event: WireEvent): void {
  const key = partKey(event, false);
  const note = objectField(event, 'annotation');
  const open = key === undefined ? undefined : s.parts.get(key);
  if (open)
    open.annotations.push({
      at: ctx.frame.seq,
      start: integerField(note, 'start_index') ?? integerField(note, 'index'),
      end: integerField(note, 'end_index'),
    });
  else if (key !== undefined && s.parts.state(key) === 'unknown')
    ctx.report(
      'provider.block-not-started',
      `response.output_text.annotation.added in event ${ctx.frame.seq} annotates part ${key}, which was never added.`,
    );
  ctx.emit(
    { type: KIND.citation, final: true, delta: citedOf(note), extras: citationExtras(note['type'], note) },
    unified('stream.content_block_delta', s.ids(event), { kind: 'annotation_added', channel: 'output_text' }),
  );
}

/** What a citation envelope carries of an annotation: its title, URL, file name or file id. */
export function citedOf(note: WireEvent): string {
  return (
    stringField(note, 'title') ||
    stringField(note, 'url') ||
    stringField(note, 'filename') ||
    stringField(note, 'file_id')
  );
}

/** An audio or audio transcript delta or done event: shown as the content event it is. */
export function audioEvent(
  s: ResponsesStream,
  ctx: ProviderEventContext,
  type: string,
  event: WireEvent,
  suffix: string,
): void {
  const transcript = type.includes('transcript');
  ctx.wire(
    type,
    event,
    unified(suffix === 'delta' ? 'stream.content_block_delta' : 'stream.content_block_stop', s.ids(event), {
      kind: transcript ? 'audio_transcript_delta' : 'audio_delta',
      ...(transcript ? { channel: 'audio_transcript' as const } : {}),
    }),
  );
}
