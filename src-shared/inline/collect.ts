import { withContent } from '../reconstruct/block-content';
import { createInlineParser, type InlineParser } from './parser';
import { segmentId } from './text-runs';
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
 * Most segments have no parameters and text has no metadata: they share one frozen empty
 * object until a parameter arrives (a session may hold a segment per text block, many
 * thousands of them).
 */
const NONE: Record<string, never> = Object.freeze({});

/**
 * Makes a segment's fields in their order, by a constructor as a block's are
 * (reconstruct/new-block.ts): V8 keeps them inside the object, where a literal grown by
 * `Object.assign` kept some in a second array and cost a generic copy per segment (one per
 * text block). Its prototype is Object's: a segment stays a plain object.
 */
const SegmentFields = function (
  this: Segment,
  id: string,
  type: string,
  metadata: Record<string, unknown>,
  offset: number,
): void {
  this.id = id;
  this.type = type;
  this.metadata = metadata;
  this.params = NONE;
  withContent(this);
  this.complete = false;
  this.start = offset;
  this.end = offset;
} as unknown as new (id: string, type: string, metadata: Record<string, unknown>, offset: number) => Segment;
SegmentFields.prototype = Object.prototype;

/**
 * An empty segment. A plain text segment's content is its block's own string, and may move
 * to disk with it (src-shared/reconstruct/block-content.ts).
 */
function newSegment(id: string, type: string, metadata: Record<string, unknown>, offset: number): Segment {
  return new SegmentFields(id, type, metadata, offset);
}

/** Builds segments from parser events (the same events the segment-events dialect carries). */
export function createSegmentCollector(
  onFinding: (finding: InlineFinding) => void = () => undefined,
): SegmentCollector {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  return {
    segments,
    sink: {
      start(id, type, metadata, offset) {
        current = newSegment(id, type, Object.keys(metadata).length === 0 ? NONE : metadata, offset);
        segments.push(current);
      },
      content(delta) {
        if (current) current.content += delta;
      },
      param(name, value) {
        if (!current) return;
        if (current.params === NONE) current.params = {};
        current.params[name] = value;
      },
      retype(type) {
        if (current) current.type = type;
      },
      end(complete, offset) {
        if (!current) return;
        current.complete = complete;
        current.end = offset;
        current = undefined;
      },
      diagnostic(rule, message, offset) {
        onFinding({ rule, message, offset });
      },
    },
  };
}

/**
 * The one segment a parser makes of plain text (no character that can start a marker) that
 * is not only white space, while the block streams: what the parser's events would build.
 */
export function plainTextSegment(content: string): Segment {
  const segment = newSegment(segmentId(1), 'text', NONE, 0);
  segment.content = content;
  return segment;
}

export interface InlineDocument {
  parser: InlineParser;
  segments: Segment[];
}

/** A parser with its collector: one per text block. */
export function createInlineDocument(
  options: InlineOptions,
  onFinding?: (finding: InlineFinding) => void,
): InlineDocument {
  const collector = createSegmentCollector(onFinding);
  return { parser: createInlineParser(collector.sink, options), segments: collector.segments };
}

/** Parse a whole text (tests, re-parsing a finished block). */
export function parseSegments(
  text: string,
  options: InlineOptions,
): { segments: Segment[]; findings: InlineFinding[] } {
  const findings: InlineFinding[] = [];
  const doc = createInlineDocument(options, (f) => findings.push(f));
  doc.parser.push(text);
  doc.parser.end();
  return { segments: doc.segments, findings };
}
