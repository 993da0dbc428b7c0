import { createInlineParser, type InlineParser } from '../../../src-shared/inline/parser';
import { DEFAULT_INLINE_OPTIONS, type SegmentSink } from '../../../src-shared/inline/types';
import type { Emitter, WireOp } from './emit';
import type { Step } from './script';

/**
 * The demo's segment-event stream (docs/protocols/segments.md, "Segment Events"): what a
 * frontend receives from an agent that parses its model's text on the server, as the
 * streaming parser there does. The run's text deltas go through the inspector's own inline
 * parser; its segments go out as SEGMENT_START / SEGMENT_CONTENT / SEGMENT_END events, one
 * JSON object per SSE event, numbered across the run. Everything but text (meta, tools,
 * `[DONE]`) has no segment and is not sent.
 */
export function createSegmentEmitter(): Emitter {
  let count = 0;
  let out: string[] = [];
  let current = '';
  const event = (type: string, payload: Record<string, unknown>, extra: Record<string, unknown> = {}): void => {
    out.push(JSON.stringify({ type, segment_id: current, ...extra, payload }));
  };
  const sink: SegmentSink = {
    start(_id, type, metadata) {
      current = `seg_${++count}`;
      event('SEGMENT_START', { metadata }, { segment_type: type });
    },
    content(delta) {
      event('SEGMENT_CONTENT', { delta });
    },
    // The parser on the wire streams boundaries and content only; tool arguments are not its business.
    param() {},
    // A SEGMENT_START already sent cannot be taken back: a server-side parser streams the type
    // it saw first (the demo's scenarios write no stray </think>).
    retype() {},
    end() {
      event('SEGMENT_END', {});
    },
    diagnostic() {},
  };
  /** The parser of the text block being streamed, by its content block index. */
  const parsers = new Map<string, InlineParser>();

  return {
    emit(step: Step): WireOp[] {
      out = [];
      if (step.kind === 'api') {
        const e = step.event;
        const key = `${step.agent}:${'index' in e ? e.index : ''}`;
        if (e.type === 'content_block_start' && e.block.type === 'text')
          parsers.set(key, createInlineParser(sink, DEFAULT_INLINE_OPTIONS));
        else if (e.type === 'content_block_delta' && e.delta.type === 'text_delta')
          parsers.get(key)?.push(e.delta.text);
        else if (e.type === 'content_block_stop') {
          parsers.get(key)?.end();
          parsers.delete(key);
        }
      }
      return out.map((data) => ({ op: 'event', data }));
    },
  };
}
