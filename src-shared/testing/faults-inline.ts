import type { RuleId } from '../diagnostics/rules';
import { KIND } from '../envelope/vocabulary';
import { type FaultKind, event, replaced, insertedAfter, indexes, parse, envelopesOf, withFields } from './faults-kit';

/** Faults of the protocols carried in the model text, and of segment events (docs/inline.md). */

/** Text deltas that do not end their block: the model text the inline stage reads (docs/inline.md). */
const textDeltaSites = envelopesOf('text', (e) => e['final'] === false && typeof e['delta'] === 'string');

/** The final envelope of the text block the delta at `site` belongs to (block-end findings point there), or the end. */
function textBlockEnd(events: readonly string[], site: number): number | 'end' {
  const agent = parse(events[site] ?? '')?.['agent'];
  for (let i = site + 1; i < events.length; i++) {
    const e = parse(events[i] ?? '');
    if (e?.['type'] === KIND.text && e['agent'] === agent && e['final'] === true) return i;
  }
  return 'end';
}

/** The model text at `site` gains `markup` at its end: a protocol broken inside the text. */
function inTextFault(rule: RuleId, name: string, markup: string, atBlockEnd = false): FaultKind {
  return {
    rule,
    name,
    dialects: ['json'],
    sites: textDeltaSites,
    apply: (events, site) => {
      const faulted = withFields(events, site, (e) => ({ ...e, delta: `${String(e['delta'])}${markup}` }));
      return atBlockEnd ? { ...faulted, target: textBlockEnd(events, site) } : faulted;
    },
  };
}

export const INLINE_FAULTS: FaultKind[] = [
  inTextFault('inline.mismatched-close', 'stray closing tool tag in text', ' </search> '),
  inTextFault('inline.invalid-sentinel', 'sentinel header without a type', ' [[SEG_START {"path":"/a"}]] '),
  inTextFault('inline.missing-param', 'tool tag without its required parameter', '<search><path>./src</path></search>'),
  inTextFault(
    'inline.multiple-actions',
    'two tool tags in one turn',
    '<search><query>a</query></search><extract><file_path>b</file_path></extract>',
  ),
  inTextFault(
    'inline.text-after-action',
    'text after the completion',
    '<attempt_completion><result>done</result></attempt_completion> and more',
  ),
  inTextFault('inline.unclosed', 'tool tag never closed', '<search><query>never closed', true),
  inTextFault('inline.no-action', 'reasoning without an action', '<thinking>no action follows</thinking>', true),
  // Only text before it in these blocks: the text so far is the reasoning of a <think> the prompt opened.
  inTextFault('inline.think-open-implied', 'a </think> no <think> opened', ' </think> '),
];

/** Segment events of one type (docs/inline.md, "The segment-events dialect"). */
function segmentEventsOf(type: string): (events: readonly string[]) => number[] {
  return (events) => indexes(events, (data) => parse(data)?.['type'] === type);
}

const segmentIdAt = (events: readonly string[], site: number): unknown => parse(events[site] ?? '')?.['segment_id'];

export const SEGMENT_FAULTS: FaultKind[] = [
  {
    rule: 'segments.unknown-id',
    name: 'content for a segment never started',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_CONTENT'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, segment_id: 'seg_404' })),
  },
  {
    rule: 'segments.started-twice',
    name: 'segment started twice',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_START'),
    apply: (events, site) => insertedAfter(events, site, event(events[site] ?? '')),
  },
  {
    rule: 'segments.content-after-end',
    name: 'content after the segment ended',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_END'),
    apply: (events, site) =>
      insertedAfter(
        events,
        site,
        event(
          JSON.stringify({
            type: 'SEGMENT_CONTENT',
            segment_id: segmentIdAt(events, site),
            payload: { delta: 'late' },
          }),
        ),
      ),
  },
  {
    rule: 'segments.unclosed',
    name: 'segment end missing',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_END'),
    apply: (events, site) => {
      // The finding points at the start of the segment left open.
      const id = segmentIdAt(events, site);
      let start = site;
      while (
        start > 0 &&
        !(parse(events[start] ?? '')?.['type'] === 'SEGMENT_START' && segmentIdAt(events, start) === id)
      )
        start--;
      return { parts: replaced(events, site), target: start };
    },
  },
  {
    rule: 'segments.unknown-type',
    name: 'segment type the protocol does not name',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_START'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, segment_type: `diagram_${site}` })),
  },
  {
    rule: 'segments.malformed-event',
    name: 'event type that is no segment event',
    dialects: ['segments'],
    sites: segmentEventsOf('SEGMENT_CONTENT'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, type: 'SEGMENT_PAUSE' })),
  },
];
