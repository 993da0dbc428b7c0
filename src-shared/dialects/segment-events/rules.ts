import type { RuleInfo } from '../../diagnostics/rules';

/** The segment events dialect's own rules (docs/diagnostics.md), spread into the catalogue (diagnostics/rules.ts). */
export const SEGMENT_RULES = {
  'segments.malformed-event': {
    severity: 'error',
    layer: 'segments',
    title: 'Event is not a segment event with a segment_id and a known type (or lacks its payload fields)',
    dialects: ['segments'],
  },
  'segments.unknown-id': {
    severity: 'warning',
    layer: 'segments',
    title: 'Content or end for a segment id that no SEGMENT_START opened',
    dialects: ['segments'],
  },
  'segments.started-twice': {
    severity: 'warning',
    layer: 'segments',
    title: 'SEGMENT_START for a segment id that was already started',
    dialects: ['segments'],
  },
  'segments.content-after-end': {
    severity: 'warning',
    layer: 'segments',
    title: 'SEGMENT_CONTENT for a segment after its SEGMENT_END',
    dialects: ['segments'],
  },
  'segments.unclosed': {
    severity: 'warning',
    layer: 'segments',
    title: 'Segment still open when the stream ends',
    dialects: ['segments'],
  },
  'segments.unknown-type': {
    severity: 'info',
    layer: 'segments',
    title: 'Segment type the protocol does not name (kept and shown)',
    dialects: ['segments'],
  },
} as const satisfies Record<string, RuleInfo>;
