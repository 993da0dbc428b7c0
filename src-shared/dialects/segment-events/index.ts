import type { DialectModule } from '../types';
import { createSegmentEventsDecoder, SEGMENT_BLOCK_KIND, SEGMENT_EVENT_TYPES } from './decoder';

/** `{"type":"SEGMENT_…","segment_id":…}` events: a streaming parser's segments over SSE (docs/inline.md). */
export const segmentEventsDialect: DialectModule<'segments'> = {
  id: 'segments',
  label: 'Segment events',
  detect: (frame) => {
    const object = frame.json();
    return (
      object !== undefined &&
      typeof object['segment_id'] === 'string' &&
      (SEGMENT_EVENT_TYPES as readonly unknown[]).includes(object['type'])
    );
  },
  create: createSegmentEventsDecoder,
  syntax: 'json',
  terminator: 'dialect',
  terminalEvent: 'the end of every segment it started',
  // One block per segment, already what the in-text stage finds in text.
  blockKinds: { [SEGMENT_BLOCK_KIND]: { label: 'Segment', inline: 'segment' } },
};
