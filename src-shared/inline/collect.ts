import { createInlineParser, type InlineParser } from './parser';
import type { InlineOptions, InlineRuleId, Segment, SegmentSink } from './types';

export interface InlineFinding {
  rule: InlineRuleId;
  message: string;
  /** Offset in the block's raw text. */
  offset: number;
}

export interface SegmentCollector {
  /** The segments so far, in stream order; live objects that grow as the block streams. */
  readonly segments: Segment[];
  readonly sink: SegmentSink;
}

/**
 * A text segment's content is the raw text from its start, verbatim: it is read from the
 * source when asked for instead of being appended delta by delta, which would keep a string
 * cell per delta beside the block's own content (a long plain answer is mostly that).
 */
function readFromSource(segment: Segment, source: () => string): { grow(by: number): void } {
  let length = 0;
  Object.defineProperty(segment, 'content', { get: () => source().slice(segment.start, segment.start + length), enumerable: true, configurable: true });
  return {
    grow(by) {
      length += by;
    },
  };
}

/**
 * Builds segments from parser events (the same events the segment-events dialect carries).
 * `source`, when given, is the text the parser reads: text segments then read their content
 * from it.
 */
export function createSegmentCollector(onFinding: (finding: InlineFinding) => void = () => undefined, source?: () => string): SegmentCollector {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  let sourced: { grow(by: number): void } | undefined;
  return {
    segments,
    sink: {
      start(id, type, metadata, offset) {
        current = { id, type, metadata, params: {}, content: '', complete: false, start: offset, end: offset };
        sourced = source && type === 'text' ? readFromSource(current, source) : undefined;
        segments.push(current);
      },
      content(delta) {
        if (sourced) sourced.grow(delta.length);
        else if (current) current.content += delta;
      },
      param(name, value) {
        if (current) current.params[name] = value;
      },
      end(complete, offset) {
        if (!current) return;
        current.complete = complete;
        current.end = offset;
        current = undefined;
        sourced = undefined;
      },
      diagnostic(rule, message, offset) {
        onFinding({ rule, message, offset });
      },
    },
  };
}

export interface InlineDocument {
  parser: InlineParser;
  segments: Segment[];
}

/** A parser with its collector: one per text block. */
export function createInlineDocument(options: InlineOptions, onFinding?: (finding: InlineFinding) => void, source?: () => string): InlineDocument {
  const collector = createSegmentCollector(onFinding, source);
  return { parser: createInlineParser(collector.sink, options), segments: collector.segments };
}

/** Parse a whole text (tests, re-parsing a finished block). */
export function parseSegments(text: string, options: InlineOptions): { segments: Segment[]; findings: InlineFinding[] } {
  const findings: InlineFinding[] = [];
  const doc = createInlineDocument(options, (f) => findings.push(f));
  doc.parser.push(text);
  doc.parser.end();
  return { segments: doc.segments, findings };
}
