import type { RuleId } from '../../diagnostics/rules';
import { undecodedParts } from '../../envelope/types';
import { KNOWN_SEGMENT_TYPES } from '../../inline/types';
import { describeValue, isJsonObject, jsonKind, parseJson } from '../../json/values';
import type { Frame } from '../../sse/types';
import { previewText } from '../../text/preview';
import type { DialectCallbacks, DialectDecoder, DialectOptions } from '../types';

/**
 * Segment events (docs/protocols/segments.md, "Segment Events"): a streaming parser's output
 * sent over SSE as `SEGMENT_START` (segment_id, segment_type, payload.metadata),
 * `SEGMENT_CONTENT` (payload.delta) and `SEGMENT_END`. Each segment becomes one block of kind
 * `segment` (the block's toolId is the segment id, its name the segment type); the metadata
 * travels on the start envelope's extras, where the inline stage picks it up for the block's
 * segment (docs/inline.md). Segments are sequential on this wire: the parser that emits them
 * is one state machine.
 */
export const SEGMENT_BLOCK_KIND = 'segment';

export const SEGMENT_EVENT_TYPES = ['SEGMENT_START', 'SEGMENT_CONTENT', 'SEGMENT_END'] as const;

type SegmentState = 'open' | 'ended';

export function createSegmentEventsDecoder(callbacks: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  const agent = options.defaultAgent ?? '';
  const segments = new Map<string, SegmentState>();
  const unknownTypes = new Set<string>();
  /** Where each open segment started, for the finding at the end. */
  const startedAt = new Map<string, Frame>();

  const report = (frame: Frame, rule: RuleId, message: string): void => {
    callbacks.onDiagnostic({
      rule,
      message,
      at: { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd },
    });
  };

  const emit = (
    frame: Frame,
    id: string,
    final: boolean,
    delta: string,
    extras: Record<string, unknown> = {},
  ): void => {
    callbacks.onEnvelope({
      frame: frame.seq,
      agent,
      type: SEGMENT_BLOCK_KIND,
      final,
      delta,
      extras: { id, ...extras },
    });
  };

  const undecoded = (frame: Frame, why: string): void => {
    report(
      frame,
      'segments.malformed-event',
      `Event ${frame.seq} is not a segment event: ${why}; kept undecoded. Data: ${previewText(frame.data)}`,
    );
    callbacks.onEnvelope({ frame: frame.seq, agent, ...undecodedParts(frame) });
  };

  function start(frame: Frame, id: string, event: Record<string, unknown>, payload: Record<string, unknown>): void {
    const type = typeof event['segment_type'] === 'string' ? event['segment_type'] : '';
    if (type === '')
      report(
        frame,
        'segments.malformed-event',
        `SEGMENT_START of ${JSON.stringify(id)} has no segment_type string; the segment is kept with an empty type.`,
      );
    else if (!(KNOWN_SEGMENT_TYPES as readonly string[]).includes(type) && !unknownTypes.has(type)) {
      unknownTypes.add(type);
      report(
        frame,
        'segments.unknown-type',
        `Segment type ${JSON.stringify(type)} (segment ${JSON.stringify(id)}) is not one the protocol names (${KNOWN_SEGMENT_TYPES.join(', ')}); it is kept and shown.`,
      );
    }
    const previous = segments.get(id);
    if (previous !== undefined) {
      report(
        frame,
        'segments.started-twice',
        `Segment ${JSON.stringify(id)} is started again${previous === 'ended' ? ' after its SEGMENT_END; the second start opens a new block' : ' while it is still open; what follows is appended to it'}.`,
      );
    }
    const metadata = isJsonObject(payload['metadata']) ? payload['metadata'] : {};
    segments.set(id, 'open');
    startedAt.set(id, frame);
    emit(frame, id, false, '', { name: type, metadata });
  }

  function content(frame: Frame, id: string, payload: Record<string, unknown>): void {
    const delta = payload['delta'];
    if (typeof delta !== 'string') {
      report(
        frame,
        'segments.malformed-event',
        `SEGMENT_CONTENT of ${JSON.stringify(id)} has no payload.delta string (it is ${jsonKind(delta)}); nothing is added.`,
      );
      return;
    }
    const state = segments.get(id);
    if (state === undefined) {
      report(
        frame,
        'segments.unknown-id',
        `SEGMENT_CONTENT for segment ${JSON.stringify(id)}, which no SEGMENT_START opened; its content is kept as a segment of unknown type.`,
      );
      segments.set(id, 'open');
      startedAt.set(id, frame);
    } else if (state === 'ended') {
      report(
        frame,
        'segments.content-after-end',
        `SEGMENT_CONTENT for segment ${JSON.stringify(id)} after its SEGMENT_END; the content is kept in a new block.`,
      );
      segments.set(id, 'open');
      startedAt.set(id, frame);
    }
    emit(frame, id, false, delta);
  }

  function end(frame: Frame, id: string): void {
    const state = segments.get(id);
    if (state !== 'open') {
      const why = state === 'ended' ? 'which already ended' : 'which no SEGMENT_START opened';
      report(frame, 'segments.unknown-id', `SEGMENT_END for segment ${JSON.stringify(id)}, ${why}; it ends nothing.`);
      return;
    }
    segments.set(id, 'ended');
    startedAt.delete(id);
    emit(frame, id, true, '');
  }

  return {
    id: 'segments',
    push(frame) {
      const parsed = parseJson(frame.data);
      if (!parsed.ok) {
        report(
          frame,
          'json.invalid',
          `Event ${frame.seq} is not valid JSON (${parsed.error}); kept undecoded. Data: ${previewText(frame.data)}`,
        );
        callbacks.onEnvelope({ frame: frame.seq, agent, ...undecodedParts(frame) });
        return;
      }
      const event = parsed.value;
      if (!isJsonObject(event)) return undecoded(frame, `it is a JSON ${jsonKind(event)}`);
      const type = event['type'];
      const id = event['segment_id'];
      if (typeof id !== 'string' || id === '') return undecoded(frame, 'it has no segment_id string');
      const payload = isJsonObject(event['payload']) ? event['payload'] : {};
      if (type === 'SEGMENT_START') start(frame, id, event, payload);
      else if (type === 'SEGMENT_CONTENT') content(frame, id, payload);
      else if (type === 'SEGMENT_END') end(frame, id);
      // The type may be any JSON value, nested arbitrarily deep: described with the stack-safe writer.
      else
        undecoded(
          frame,
          `its type ${typeof type === 'string' ? JSON.stringify(type) : describeValue(type)} is none of ${SEGMENT_EVENT_TYPES.join(', ')}`,
        );
    },
    end() {
      for (const [id, frame] of startedAt) {
        report(
          frame,
          'segments.unclosed',
          `Segment ${JSON.stringify(id)} is still open when the stream ends: no SEGMENT_END came. It is shown as received.`,
        );
      }
      // The wire has no terminal event: a stream whose every segment ended is a finished one.
      if (startedAt.size === 0 && segments.size > 0) callbacks.onStreamEnd?.({ event: 'the end of its last segment' });
      startedAt.clear();
    },
  };
}
