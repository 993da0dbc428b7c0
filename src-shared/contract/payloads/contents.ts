import type { UnifiedEvent } from '../../envelope/unified';
import { BLOCK_STATUSES } from '../../reconstruct/types';
import type { Infer } from '../schema';
import { ControlKind, Count, DialectId, SessionId, Severity } from './common';
import { PendingTool } from './sessions';
import * as s from '../schema';

/** What a session holds, fetched on demand: rows, envelopes, frames, raw bytes, blocks and findings. */

/** One timeline row per envelope; row index = envelope seq. Compact: the delta is a preview. */
export const TimelineRow = s.object({
  seq: Count(),
  leg: Count(),
  frame: Count(),
  receivedAt: s.number(),
  agent: s.string(),
  type: s.string(),
  final: s.boolean(),
  /** The first characters of the delta, control characters made visible. */
  preview: s.string({ max: 256 }),
  /** Length of the whole delta in UTF-16 code units. */
  deltaLength: Count(),
  /** Bytes of the SSE frame on the wire (shared by envelopes of one XML frame). */
  bytes: Count(),
  toolId: s.optional(s.string()),
  name: s.optional(s.string()),
  control: s.optional(ControlKind),
  block: s.optional(Count()),
  diagnostics: Count(),
  severity: s.optional(Severity),
  /** Provider dialects: the unified event's family and kind (`content_block_delta · text_delta`). */
  unified: s.optional(s.string({ max: 256 })),
});
export type TimelineRow = Infer<typeof TimelineRow>;

export const RowsRequest = s.object({
  sessionId: SessionId,
  start: Count(),
  count: s.number({ integer: true, min: 0, max: 10_000 }),
});
export type RowsRequest = Infer<typeof RowsRequest>;
export const RowsPage = s.object({ total: Count(), start: Count(), rows: s.array(TimelineRow) });
export type RowsPage = Infer<typeof RowsPage>;

export const SearchResult = s.object({ seqs: s.array(Count()), truncated: s.boolean() });
export type SearchResult = Infer<typeof SearchResult>;

/** A filter expression (docs/filters.md) evaluated over every envelope of a session. */
export const FilterRowsRequest = s.object({
  sessionId: SessionId,
  expression: s.string({ nonEmpty: true, max: 4000 }),
  max: s.optional(s.number({ integer: true, min: 1, max: 1_000_000 })),
});
export type FilterRowsRequest = Infer<typeof FilterRowsRequest>;

export const EnvelopeDetail = s.object({
  seq: Count(),
  leg: Count(),
  frame: Count(),
  agent: s.string(),
  type: s.string(),
  final: s.boolean(),
  delta: s.string(),
  extras: s.json<Record<string, unknown>>(),
  control: s.optional(ControlKind),
  /** Provider dialects: the wire event on the unified surface (docs/protocols/provider-events.md). */
  unified: s.optional(s.json<UnifiedEvent>()),
  dialect: DialectId,
  byteStart: Count(),
  byteEnd: Count(),
  receivedAt: s.number(),
});
export type EnvelopeDetail = Infer<typeof EnvelopeDetail>;

export const FrameDetail = s.object({
  leg: Count(),
  seq: Count(),
  byteStart: Count(),
  byteEnd: Count(),
  chunkFirst: Count(),
  chunkLast: Count(),
  receivedAt: s.number(),
  event: s.string(),
  data: s.string(),
  id: s.string(),
  dataLines: Count(),
  maxDataLineBytes: Count(),
  /** Set when the frame is a line of a line-framed wire (the AI SDK's v4 data stream), not an SSE event. */
  line: s.optional(s.boolean()),
});
export type FrameDetail = Infer<typeof FrameDetail>;

export const RawBytesRequest = s.object({ sessionId: SessionId, leg: Count(), byteStart: Count(), byteEnd: Count() });
export type RawBytesRequest = Infer<typeof RawBytesRequest>;

export const NetworkChunk = s.object({ index: Count(), byteStart: Count(), byteEnd: Count(), receivedAt: s.number() });
export type NetworkChunk = Infer<typeof NetworkChunk>;

export const RawBytes = s.object({
  leg: Count(),
  byteStart: Count(),
  /** Exclusive; clamped to what was received and to the per-request cap. */
  byteEnd: Count(),
  base64: s.string(),
  truncated: s.boolean(),
  /** The network chunks overlapping the range, with their receive times. */
  chunks: s.array(NetworkChunk),
});
export type RawBytes = Infer<typeof RawBytes>;

export const Citation = s.object({
  citationType: s.string(),
  citedText: s.string(),
  fields: s.json<Record<string, unknown>>(),
  envelope: Count(),
});
export const ImageRef = s.object({ src: s.string(), mediaType: s.string(), envelope: Count() });
export const BlockStatus = s.literal(...BLOCK_STATUSES);

/** A segment of a text block (docs/inline.md, "Output"). */
export const Segment = s.object({
  id: s.string(),
  type: s.string(),
  metadata: s.json<Record<string, unknown>>(),
  params: s.record(s.string()),
  content: s.string(),
  complete: s.boolean(),
  start: Count(),
  end: Count(),
});
export type SegmentPayload = Infer<typeof Segment>;

/** A block without its content: what the blocks list and the batches carry. */
export const BlockSummary = s.object({
  id: Count(),
  agent: s.string(),
  kind: s.string(),
  status: BlockStatus,
  toolId: s.optional(s.string()),
  name: s.optional(s.string()),
  /** Content length in UTF-16 code units, and its first characters. */
  length: Count(),
  preview: s.string({ max: 256 }),
  citations: Count(),
  images: Count(),
  linkedBlock: s.optional(Count()),
  pendingTools: s.optional(s.array(PendingTool)),
  parseError: s.optional(s.string()),
  /** For an abandoned block: the block that replays it; for a replay: the block it replaces. */
  replacedBy: s.optional(Count()),
  replaces: s.optional(Count()),
  /** Characters past the held-content cap (block.content-capped): counted, not held; in the stream's bytes. */
  omittedChars: s.optional(Count()),
  firstEnvelope: Count(),
  lastEnvelope: Count(),
  envelopeCount: Count(),
  /** For text blocks: the segment types the inline stage found, in order of first appearance. */
  segmentTypes: s.optional(s.array(s.string())),
  /** The leg of the first envelope; the byte span is in that leg's stream. */
  leg: Count(),
  byteStart: Count(),
  byteEnd: Count(),
});
export type BlockSummary = Infer<typeof BlockSummary>;

export const BlockDetail = s.object({
  id: Count(),
  agent: s.string(),
  kind: s.string(),
  status: BlockStatus,
  content: s.string(),
  toolId: s.optional(s.string()),
  name: s.optional(s.string()),
  citations: s.array(Citation),
  images: s.array(ImageRef),
  parsed: s.optional(s.json<unknown>()),
  parseError: s.optional(s.string()),
  linkedBlock: s.optional(Count()),
  pendingTools: s.optional(s.array(PendingTool)),
  replacedBy: s.optional(Count()),
  replaces: s.optional(Count()),
  omittedChars: s.optional(Count()),
  envelopes: s.array(Count()),
  /** For text blocks: the inline stage's segments, and (while live) the characters it holds back. */
  segments: s.optional(s.array(Segment)),
  held: s.optional(Count()),
  leg: Count(),
  byteStart: Count(),
  byteEnd: Count(),
});
export type BlockDetail = Infer<typeof BlockDetail>;

export const DiagnosticLocation = s.object({
  leg: s.optional(Count()),
  byteStart: s.optional(Count()),
  byteEnd: s.optional(Count()),
  frame: s.optional(Count()),
  envelope: s.optional(Count()),
  block: s.optional(Count()),
  /** For findings about an imported file: byte offset in the file and 1-based line. */
  fileOffset: s.optional(Count()),
  line: s.optional(Count()),
});

export const Diagnostic = s.object({
  seq: Count(),
  rule: s.string(),
  severity: Severity,
  message: s.string(),
  at: DiagnosticLocation,
});
export type DiagnosticPayload = Infer<typeof Diagnostic>;
