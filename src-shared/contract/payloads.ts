import { WIRE_FORMATS } from '../agents/wire-formats';
import { DIALECT_IDS } from '../dialects/registry';
import { SEVERITIES } from '../diagnostics/severity';
import { INLINE_MODES } from '../inline/types';
import { END_STATUS_KINDS } from '../pipeline/end-status';
import { BLOCK_STATUSES } from '../reconstruct/types';
import type { SessionDiff } from '../diff/types';
import { CONTROL_KINDS } from '../envelope/types';
import type { UnifiedEvent } from '../envelope/unified';
import { FAILURE_KIND_NAMES } from './failure-kinds';
import { columnsProblem, type RowColumns as RowColumnsData } from './row-columns';
import * as s from './schema';
import type { Infer } from './schema';

/**
 * Every payload that crosses between main and the renderer, as a schema (checked at the
 * boundary) and as a type (`Infer<…>`). Large things travel on demand, by id: rows carry a
 * short preview, blocks a summary, and contents, raw bytes and frames are fetched when shown.
 */

// ─── Shared pieces ──────────────────────────────────────────────────────────────────────

export const SessionId = s.string({ nonEmpty: true, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
export const Severity = s.literal(...SEVERITIES);
export const FormatChoice = s.literal('auto', ...DIALECT_IDS);
export const DialectId = s.literal(...DIALECT_IDS);
export const ControlKind = s.literal(...CONTROL_KINDS);

/** An ordered header table: pairs keep order and duplicates (as typed in the connect form). */
export const HeaderTable = s.array(s.tuple(s.string({ max: 1024 }), s.string({ max: 64 * 1024 })), { max: 500 });

const Path = s.string({ nonEmpty: true, max: 4096 });
const Count = s.index;

/** How the inline stage reads the model's text (docs/inline.md): a mode and the known tool tags. */
export const InlineOptions = s.object({
  mode: s.literal(...INLINE_MODES),
  tools: s.array(
    s.object({
      name: s.string({ nonEmpty: true, max: 100, pattern: /^[A-Za-z_][A-Za-z0-9_.-]*$/ }),
      required: s.array(s.string({ nonEmpty: true, max: 100, pattern: /^[A-Za-z_][A-Za-z0-9_.-]*$/ }), { max: 50 }),
    }),
    { max: 100 },
  ),
});

export const SeverityCounts = s.object({ error: Count(), warning: Count(), info: Count() } satisfies Record<(typeof SEVERITIES)[number], unknown>);

// ─── Connecting and opening ─────────────────────────────────────────────────────────────

export const RequestBody = s.variant('kind', {
  /** JSON text; checked to parse before sending; Content-Type defaults to application/json. */
  json: s.object({ text: s.string({ max: 16 * 1024 * 1024 }) }),
  /** Sent exactly as written. */
  raw: s.object({ text: s.string({ max: 16 * 1024 * 1024 }) }),
});

/** Secret values main filled into a request: wherever it is shown or written, each occurrence reads `{{name}}`. */
export const SecretValues = s.array(s.object({ name: s.string({ nonEmpty: true, max: 100 }), value: s.string({ max: 64 * 1024 }) }), { max: 200 });

/**
 * What a request is: the connect form's fields, and what a saved request keeps (with its
 * `{{variables}}` as written).
 */
export const RequestTemplate = s.object({
  url: s.string({ nonEmpty: true, max: 8192 }),
  method: s.string({ nonEmpty: true, max: 16, pattern: /^[A-Za-z]+$/ }),
  headers: HeaderTable,
  body: s.optional(RequestBody),
  /** Dialect override; auto-detected when absent. */
  format: s.optional(FormatChoice),
  /** How text blocks are read for in-text protocols; auto with the default tool tags when absent. */
  inline: s.optional(InlineOptions),
});

export const ConnectRequest = s.object({
  ...RequestTemplate.shape,
  /** Record the session to this file as it arrives (never overwrites an existing file). */
  recordTo: s.optional(Path),
  title: s.optional(s.string({ max: 200 })),
  /**
   * Reopen a dropped GET stream (with Last-Event-ID, after the server's clamped `retry`).
   * Refused for other methods: re-sending a POST would start a new agent run.
   */
  reconnect: s.optional(s.object({ maxAttempts: s.number({ integer: true, min: 1, max: 100 }) })),
  /** Decode even when the response is not text/event-stream. */
  acceptAnyContentType: s.optional(s.boolean()),
  /** Set by main after filling in environment variables (see SecretValues). */
  secretValues: s.optional(SecretValues),
  timeouts: s.optional(
    s.object({
      /** TCP + TLS handshake. */
      connectMs: s.optional(s.number({ min: 1, max: 600_000 })),
      /** From the request being sent to the response head. */
      responseMs: s.optional(s.number({ min: 1, max: 3_600_000 })),
      /** Silence on an open stream before giving up; absent or 0 means wait forever. */
      idleMs: s.optional(s.number({ min: 0, max: 86_400_000 })),
    }),
  ),
});

export const OpenFileRequest = s.object({
  path: Path,
  format: s.optional(FormatChoice),
  /** For HAR files: which text/event-stream entry (index among those entries). */
  entry: s.optional(s.index()),
  title: s.optional(s.string({ max: 200 })),
  inline: s.optional(InlineOptions),
});

/** A file picked in the browser host, sent as base64 (the browser cannot hand over a path). */
export const OpenUploadRequest = s.object({
  name: s.string({ nonEmpty: true, max: 512 }),
  base64: s.string({ max: 96 * 1024 * 1024 }),
  format: s.optional(FormatChoice),
  entry: s.optional(s.index()),
  inline: s.optional(InlineOptions),
});

// ─── Sessions ───────────────────────────────────────────────────────────────────────────

export const SessionState = s.literal('connecting', 'streaming', 'loading', 'complete', 'stopped', 'failed');

/** Why a source ended badly: each kind has its own clear message, and the body when there is one. */
export const Failure = s.object({
  kind: s.literal(...FAILURE_KIND_NAMES),
  message: s.string(),
  status: s.optional(s.number({ integer: true })),
  contentType: s.optional(s.string()),
  /** The response body as text, up to a cap (HTML login page, JSON error, 422 details). */
  body: s.optional(s.string()),
  bodyTruncated: s.optional(s.boolean()),
  /** System error code (ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED…). */
  code: s.optional(s.string()),
});

export const SessionSource = s.variant('kind', {
  live: s.object({ method: s.string(), url: s.string() }),
  /** `uploaded`: a copy the browser host made of an upload; its path is internal, not the user's file. */
  file: s.object({ path: s.string(), importer: s.string(), uploaded: s.optional(s.boolean()) }),
  replay: s.object({ of: SessionId }),
});

/** How a session ended (pipeline/end-status.ts): absent while it is still receiving. */
export const EndStatus = s.object({
  kind: s.literal(...END_STATUS_KINDS),
  label: s.string({ max: 100 }),
  reason: s.string({ max: 4096 }),
});

export const SessionSummary = s.object({
  id: SessionId,
  title: s.string(),
  source: SessionSource,
  state: SessionState,
  createdAt: s.number(),
  legs: Count(),
  envelopes: Count(),
  bytes: Count(),
  format: s.nullable(DialectId),
  diagnostics: SeverityCounts,
  /** Blocks reconstructed so far (absent: none). */
  blocks: s.optional(Count()),
  httpStatus: s.optional(s.number({ integer: true })),
  /** The last leg ended waiting for frontend tool results that were not sent yet. */
  awaitingTools: s.boolean(),
  recordingPath: s.optional(s.string()),
  failure: s.optional(Failure),
  /** How the session's text blocks are read for in-text protocols. */
  inline: s.optional(InlineOptions),
  end: s.optional(EndStatus),
  /**
   * Bumps when the session starts over from empty (a replay seeking backwards): what the
   * renderer holds of an older generation is gone. Absent: 0.
   */
  generation: s.optional(Count()),
  /** A replay that has not ended and is not playing (paused, at a breakpoint, stepped). */
  replayPaused: s.optional(s.boolean()),
});

/** A request as shown to the user: secrets in headers and URL are redacted. */
export const RequestInfo = s.object({
  method: s.string(),
  url: s.string(),
  headers: HeaderTable,
  body: s.optional(s.string()),
  bodyTruncated: s.optional(s.boolean()),
});

export const ResponseInfo = s.object({
  status: s.number({ integer: true }),
  statusText: s.string(),
  headers: HeaderTable,
});

export const LegEnd = s.object({
  reason: s.literal('complete', 'stopped', 'failed', 'aborted'),
  message: s.optional(s.string()),
});

export const LegInfo = s.object({
  leg: Count(),
  kind: s.literal('run', 'tool-results', 'reconnect', 'file'),
  request: s.nullable(RequestInfo),
  response: s.nullable(ResponseInfo),
  startedAt: s.number(),
  endedAt: s.optional(s.number()),
  bytes: Count(),
  chunks: Count(),
  frames: Count(),
  format: s.nullable(DialectId),
  end: s.optional(LegEnd),
  failure: s.optional(Failure),
});

export const AgentInfo = s.object({
  uuid: s.string(),
  parent: s.nullable(s.string()),
  model: s.optional(s.string()),
  format: s.optional(s.string()),
  userQuery: s.optional(s.string()),
  metaInitEnvelope: s.optional(Count()),
  firstEnvelope: Count(),
});

export const PendingTool = s.object({ toolUseId: s.string(), name: s.string(), input: s.json<unknown>() });

/** What the frontend-tools prompt needs: the tools, and where the answer would go. */
export const PendingTools = s.object({
  leg: Count(),
  block: Count(),
  agentUuid: s.string(),
  tools: s.array(PendingTool),
  /** Set once results for this pending set were sent (a second send needs `resend`). */
  answered: s.literal('no', 'sending', 'sent', 'failed'),
  /** Where main will POST (shown, not taken from the renderer): path and query on the run's origin. */
  defaultPath: s.string(),
  defaultExtraBody: s.record(s.json<unknown>()),
});

export const SessionDetail = s.object({
  summary: SessionSummary,
  request: s.nullable(RequestInfo),
  legs: s.array(LegInfo),
  agents: s.array(AgentInfo),
  pendingTools: s.nullable(PendingTools),
});

// ─── Rows, envelopes, frames, bytes, blocks, diagnostics ────────────────────────────────

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

export const RowsRequest = s.object({ sessionId: SessionId, start: Count(), count: s.number({ integer: true, min: 0, max: 10_000 }) });
export const RowsPage = s.object({ total: Count(), start: Count(), rows: s.array(TimelineRow) });

export const SearchResult = s.object({ seqs: s.array(Count()), truncated: s.boolean() });

/** A filter expression (docs/filters.md) evaluated over every envelope of a session. */
export const FilterRowsRequest = s.object({ sessionId: SessionId, expression: s.string({ nonEmpty: true, max: 4000 }), max: s.optional(s.number({ integer: true, min: 1, max: 1_000_000 })) });

// ─── Recording proxy ────────────────────────────────────────────────────────────────────

export const ProxyStartRequest = s.object({
  /** Port on 127.0.0.1 (0: any free one). */
  port: s.number({ integer: true, min: 0, max: 65535 }),
  /** The agent server the frontend's requests go to. */
  target: s.string({ nonEmpty: true, max: 8192 }),
  /** Folder for one recording per event-stream session; absent: sessions are kept in memory only. */
  recordDir: s.optional(Path),
});

/** One forwarded request. */
export const ProxyExchange = s.object({
  id: Count(),
  method: s.string({ max: 32 }),
  path: s.string({ max: 8192 }),
  startedAt: s.number(),
  status: s.optional(s.number({ integer: true })),
  contentType: s.optional(s.string({ max: 1024 })),
  bytes: Count(),
  endedAt: s.optional(s.number()),
  error: s.optional(s.string()),
  sessionId: s.optional(SessionId),
});

export const ProxyState = s.object({
  url: s.string(),
  target: s.string(),
  recordDir: s.optional(s.string()),
  /** The latest exchanges, oldest first (capped). */
  exchanges: s.array(ProxyExchange, { max: 1000 }),
});

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
});

export const RawBytesRequest = s.object({ sessionId: SessionId, leg: Count(), byteStart: Count(), byteEnd: Count() });

export const NetworkChunk = s.object({ index: Count(), byteStart: Count(), byteEnd: Count(), receivedAt: s.number() });

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

export const Citation = s.object({ citationType: s.string(), citedText: s.string(), fields: s.json<Record<string, unknown>>(), envelope: Count() });
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
  envelopes: s.array(Count()),
  /** For text blocks: the inline stage's segments, and (while live) the characters it holds back. */
  segments: s.optional(s.array(Segment)),
  held: s.optional(Count()),
  leg: Count(),
  byteStart: Count(),
  byteEnd: Count(),
});

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

// ─── Frontend tools ─────────────────────────────────────────────────────────────────────

/** One answer, in the upstream wire's own field names (docs/protocols/upstream-protocol.md §8 #33). */
export const ToolResult = s.object({
  tool_use_id: s.string({ nonEmpty: true, max: 512 }),
  content: s.string({ max: 16 * 1024 * 1024 }),
  is_error: s.optional(s.boolean()),
});

export const SendToolResultsRequest = s.object({
  sessionId: SessionId,
  results: s.array(ToolResult, { max: 1000 }),
  /** Path (and query) on the run URL's origin; default: the run path with /agent/run → /agent/tool_results. */
  path: s.optional(s.string({ max: 4096, pattern: /^\/(?!\/)/ })),
  /** Extra top-level body fields such as agent_type (agent_uuid and tool_results are fixed). */
  extraBody: s.optional(s.record(s.json<unknown>(), { maxKeys: 100 })),
  /** Send although results for this pending set were already sent once and failed. */
  resend: s.optional(s.boolean()),
  /** Send a set of ids different from the pending set (to see the server's mismatch error). */
  allowMismatch: s.optional(s.boolean()),
});

export const SendToolResultsResult = s.object({ leg: Count() });

/** Run a live session's request again once per format, to diff the runs. */
export const RunInFormatsRequest = s.object({
  sessionId: SessionId,
  formats: s.array(s.literal(...WIRE_FORMATS), { max: WIRE_FORMATS.length }),
});

// ─── Replay ─────────────────────────────────────────────────────────────────────────────

export const ReplaySpeed = s.number({ min: 0.25, max: 20 });

export const StartReplayRequest = s.object({
  sessionId: SessionId,
  speed: s.optional(ReplaySpeed),
  /** Ignore the recorded timing and play as fast as possible. */
  instant: s.optional(s.boolean()),
  paused: s.optional(s.boolean()),
});

/** Longest envelope type a breakpoint names, and most types a replay offers (a stream may send any). */
export const BREAKPOINT_TYPE_MAX = 200;
export const REPLAY_TYPES_MAX = 500;

/** A condition that pauses a playing replay (src-shared/replay/breakpoints.ts, docs/replay.md). */
export const Breakpoint = s.variant('kind', {
  type: s.object({ type: s.string({ nonEmpty: true, max: BREAKPOINT_TYPE_MAX }) }),
  agent: s.object({ agent: s.string({ max: 200 }) }),
  error: s.object({}),
});

export const ReplayAction = s.variant('kind', {
  play: s.object({}),
  pause: s.object({}),
  /**
   * Take N steps and pause. A step is the bytes up to the end of the next SSE event for a
   * source without network timing (a capture, an envelope file), and the next network chunk
   * for a recording or live session, cut so that it never completes more than one event. A
   * step also ends at a recorded frontend-tools pause.
   */
  step: s.object({ count: s.optional(s.number({ integer: true, min: 1, max: 100_000 })) }),
  /** Jump so that every envelope up to and including this one, and none after its frame, has been delivered. */
  seek: s.object({ envelope: Count() }),
  speed: s.object({ speed: ReplaySpeed, instant: s.optional(s.boolean()) }),
  /** Replace the breakpoints; playing pauses at the next envelope one of them hits. */
  breakpoints: s.object({ breakpoints: s.array(Breakpoint, { max: 50 }) }),
  /** Start over at the end (after a short hold on the finished state) until turned off. */
  loop: s.object({ on: s.boolean() }),
});

export const ReplayControlRequest = s.object({ sessionId: SessionId, action: ReplayAction });

export const ReplayState = s.object({
  sessionId: SessionId,
  source: SessionId,
  playing: s.boolean(),
  speed: ReplaySpeed,
  instant: s.boolean(),
  /** Envelopes of the source delivered so far, and in total. */
  position: Count(),
  total: Count(),
  finished: s.boolean(),
  /**
   * The source has no receive times (a capture, an envelope file): it plays one event at a
   * time at this many per second at ×1 (the speed multiplies it) instead of all at once.
   */
  pace: s.optional(s.number({ min: 0 })),
  breakpoints: s.array(Breakpoint),
  /** The breakpoint the replay is paused at (cleared when it plays on, steps or seeks). */
  hit: s.optional(
    s.object({
      breakpoint: Breakpoint,
      envelope: Count(),
      rule: s.optional(s.string()),
      message: s.optional(s.string()),
    }),
  ),
  loop: s.boolean(),
  /** Passes that started over because of the loop. */
  loops: Count(),
  /** The source's envelope types in order of first appearance (what a type breakpoint can name); at most REPLAY_TYPES_MAX of at most BREAKPOINT_TYPE_MAX characters. */
  types: s.array(s.string({ max: BREAKPOINT_TYPE_MAX }), { max: REPLAY_TYPES_MAX }),
});

// ─── Diff ────────────────────────────────────────────────────────────────────────────────

export const DiffRequest = s.object({
  left: SessionId,
  right: SessionId,
  /** Align blocks across agents (chosen automatically when a side cannot attribute sub-agents). */
  flattenAgents: s.optional(s.boolean()),
});

/**
 * The block-level diff of two sessions (shape: src-shared/diff/types SessionDiff; checked as
 * plain data) and one text per side for a whole-transcript diff editor.
 */
export const DiffResult = s.object({
  diff: s.json<SessionDiff>(),
  transcript: s.object({ left: s.string(), right: s.string() }),
});

// ─── Saving and exporting ───────────────────────────────────────────────────────────────

export const RenameRequest = s.object({ sessionId: SessionId, title: s.string({ max: 200 }) });
export const SaveRecordingRequest = s.object({ sessionId: SessionId, path: s.optional(Path) });
export const ExportKind = s.literal('envelopes-ndjson', 'blocks-json', 'raw-sse', 'har', 'transcript-md');
/** What a download holds: the session as a recording, or one of the exports (src-shared/export/formats.ts). */
export const DownloadKind = s.literal('recording', 'envelopes-ndjson', 'blocks-json', 'raw-sse', 'har', 'transcript-md');
export const DownloadRequest = s.object({ sessionId: SessionId, kind: DownloadKind });
/** A file for the page to hand to the browser as a download: its name, type and bytes. */
export const DownloadFile = s.object({ fileName: s.string(), mimeType: s.string(), bytes: Count(), base64: s.string() });
export const ExportRequest = s.object({ sessionId: SessionId, kind: ExportKind, path: s.optional(Path) });
/** null when the user cancelled the save dialog. */
export const SavedFile = s.nullable(s.object({ path: s.string(), bytes: Count() }));

// ─── Saved requests, environments, recent sessions ───────────────────────────────────────

const ItemId = s.string({ nonEmpty: true, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
const ItemName = s.string({ nonEmpty: true, max: 200 });

export const SavedRequest = s.object({ id: ItemId, name: ItemName, request: RequestTemplate, createdAt: s.number(), updatedAt: s.number() });
/** Without an id: a new saved request; with one: that request replaced. */
export const SaveRequestInput = s.object({ id: s.optional(ItemId), name: ItemName, request: RequestTemplate });

export const VariableName = s.string({ nonEmpty: true, max: 100, pattern: /^[A-Za-z_][A-Za-z0-9_.-]*$/ });

/** A variable as the renderer sees it: a secret's value never leaves main, only whether it has one. */
export const VariableView = s.object({ name: VariableName, secret: s.boolean(), value: s.optional(s.string({ max: 64 * 1024 })), hasValue: s.boolean() });
export const EnvironmentView = s.object({ id: ItemId, name: ItemName, variables: s.array(VariableView, { max: 500 }) });

/** An edited variable; a secret without `value` keeps the one main holds. */
export const VariableInput = s.object({ name: VariableName, secret: s.boolean(), value: s.optional(s.string({ max: 64 * 1024 })) });
export const EnvironmentInput = s.object({ id: s.optional(ItemId), name: ItemName, variables: s.array(VariableInput, { max: 500 }) });

export const EnvironmentsState = s.object({
  environments: s.array(EnvironmentView),
  activeId: s.nullable(ItemId),
  /** How secret values are kept on this host, said plainly to the user. */
  secretStorage: s.object({ encrypted: s.boolean(), description: s.string() }),
});

/** How a request is filled before it is copied as curl: references kept, or filled with secrets masked, or filled whole. */
export const ResolveRequestInput = s.object({ request: RequestTemplate, mode: s.literal('template', 'resolved', 'with-secrets') });

export const RecentSession = s.object({
  id: ItemId,
  title: s.string(),
  format: s.nullable(DialectId),
  end: s.optional(EndStatus),
  method: s.string(),
  url: s.string(),
  envelopes: Count(),
  bytes: Count(),
  createdAt: s.number(),
  endedAt: s.number(),
});

/** The recent sessions kept, and the setting that bounds them (0: none kept). */
export const RecentSessions = s.object({ sessions: s.array(RecentSession), keep: s.number({ integer: true, min: 0, max: 500 }), folder: s.string() });

// ─── App, host and demo agent ───────────────────────────────────────────────────────────

export const AppInfo = s.object({
  name: s.string(),
  version: s.string(),
  host: s.literal('electron', 'browser'),
  platform: s.string(),
  /** What this host can do: native dialogs (Electron) or uploads (browser). */
  capabilities: s.object({ fileDialogs: s.boolean(), upload: s.boolean(), dropPaths: s.boolean() }),
});

export const DemoScenario = s.object({ id: s.string(), title: s.string(), description: s.optional(s.string()) });

export const DemoAgentInfo = s.nullable(
  s.object({
    baseUrl: s.string(),
    runUrl: s.string(),
    toolResultsUrl: s.string(),
    formats: s.array(s.string()),
    scenarios: s.array(DemoScenario),
    /** The provider APIs it serves (`/v1/messages`, `/v1/responses`), with their scenarios. */
    providers: s.array(s.object({ id: s.literal('anthropic', 'openai'), title: s.string(), url: s.string(), dialect: DialectId, scenarios: s.array(DemoScenario) })),
    /** A ready-made connect request for the default scenario (what a newcomer runs first). */
    defaultRequest: ConnectRequest,
  }),
);

/** A sample recording shipped with the app (resources/samples); some hold a pair of runs. */
export const SampleInfo = s.object({
  id: s.string({ nonEmpty: true, max: 64 }),
  title: s.string(),
  summary: s.string(),
  /** How many sessions opening it gives (2 for a pair to diff). */
  sessions: s.number({ integer: true, min: 1 }),
});

/** Samples are named by id only: the host maps the id to its own files, never to a path. */
export const OpenSampleRequest = s.object({ id: s.string({ nonEmpty: true, max: 64 }) });

export const ExternalUrl = s.object({ url: s.string({ nonEmpty: true, max: 8192 }) });

// ─── Events ─────────────────────────────────────────────────────────────────────────────

/**
 * Rows in compact columns (src-shared/contract/row-columns.ts): receive time, agent and type
 * (indexes into `strings`) and flags, one entry per row.
 */
export const RowColumns: s.Schema<RowColumnsData> = s.refine(
  s.object({
    strings: s.array(s.string()),
    receivedAt: s.array(s.number()),
    agent: s.array(Count()),
    type: s.array(Count()),
    flags: s.array(Count()),
  }),
  columnsProblem,
);

/**
 * What changed in one session since the last batch (at most one batch per ~16 ms per session,
 * at most MAX_BATCH_ROWS rows). `columns` hold the new rows, continuing the timeline at
 * `start`, in compact form; `rows` are the full rows of some of them (the session's first
 * rows and the batch's newest: what a table shows before it could fetch a page); `changed`
 * are full rows sent before whose block or diagnostic badge changed; `agents` are new ones.
 * Blocks and findings are not carried: a batch says how far they have got (`blockRevision`,
 * `diagnosticCount`, `diagnosticResets`) and the views that show them fetch what changed
 * (getBlockChanges, getDiagnosticsSince). A batch whose `start` is below the rows a client
 * holds means the session started over (a replay seeking backwards): drop the rows from
 * `start` on, and the blocks, agents and diagnostics, then apply the batch.
 */
export const SessionBatch = s.object({
  sessionId: SessionId,
  /** The session's generation (see SessionSummary.generation); absent: 0. */
  generation: s.optional(Count()),
  total: Count(),
  start: Count(),
  columns: RowColumns,
  rows: s.array(TimelineRow),
  changed: s.array(TimelineRow),
  agents: s.array(AgentInfo),
  /** Bumps whenever a block opens or changes (see BlockChanges). */
  blockRevision: Count(),
  /** Findings in the session's list. */
  diagnosticCount: Count(),
  /** Bumps whenever the list was replaced (the inline mode changed); absent: 0. */
  diagnosticResets: s.optional(Count()),
});

/** The blocks that opened or changed after revision `since` of a BlockChangesRequest, and the revision they bring the client to. */
export const BlockChanges = s.object({
  revision: Count(),
  blocks: s.array(BlockSummary),
});

export const BlockChangesRequest = s.object({ sessionId: SessionId, since: Count() });

/**
 * Findings from `from` on. When the list was replaced since the client's `resets` (the inline
 * mode changed), the answer is the whole new list: `from` 0 and the current `resets`.
 */
export const DiagnosticsSinceRequest = s.object({ sessionId: SessionId, from: Count(), resets: Count() });
export const DiagnosticsPage = s.object({
  resets: Count(),
  from: Count(),
  diagnostics: s.array(Diagnostic),
});

export const LiveStatus = s.object({
  sessionId: SessionId,
  state: SessionState,
  leg: Count(),
  httpStatus: s.optional(s.number({ integer: true })),
  bytes: Count(),
  envelopes: Count(),
  elapsedMs: s.number({ min: 0 }),
  /** Envelopes per second over the last second. */
  envelopesPerSecond: s.number({ min: 0 }),
  bytesPerSecond: s.number({ min: 0 }),
  /** Time since the last byte arrived (a quiet agent runs a long tool). */
  idleMs: s.number({ min: 0 }),
});

export const ErrorEvent = s.object({
  sessionId: s.optional(SessionId),
  kind: Failure.shape.kind,
  message: s.string(),
  at: s.number(),
});

/** Things the host asks the renderer to do (menu items, a file dropped on the window). */
export const HostCommand = s.variant('kind', {
  'select-session': s.object({ sessionId: SessionId }),
  'save-recording': s.object({}),
  export: s.object({ exportKind: ExportKind }),
  replay: s.object({}),
  connect: s.object({}),
});

export type HeaderTable = Infer<typeof HeaderTable>;
export type FormatChoice = Infer<typeof FormatChoice>;
export type ConnectRequest = Infer<typeof ConnectRequest>;
export type RequestBody = Infer<typeof RequestBody>;
export type OpenFileRequest = Infer<typeof OpenFileRequest>;
export type OpenUploadRequest = Infer<typeof OpenUploadRequest>;
export type SessionState = Infer<typeof SessionState>;
export type Failure = Infer<typeof Failure>;
export type SessionSource = Infer<typeof SessionSource>;
export type ProxyStartRequest = Infer<typeof ProxyStartRequest>;
export type ProxyExchange = Infer<typeof ProxyExchange>;
export type ProxyState = Infer<typeof ProxyState>;
export type SessionSummary = Infer<typeof SessionSummary>;
export type EndStatusPayload = Infer<typeof EndStatus>;
export type RequestInfo = Infer<typeof RequestInfo>;
export type ResponseInfo = Infer<typeof ResponseInfo>;
export type LegInfo = Infer<typeof LegInfo>;
export type LegEndInfo = Infer<typeof LegEnd>;
export type AgentInfoPayload = Infer<typeof AgentInfo>;
export type PendingToolPayload = Infer<typeof PendingTool>;
export type PendingTools = Infer<typeof PendingTools>;
export type SessionDetail = Infer<typeof SessionDetail>;
export type TimelineRow = Infer<typeof TimelineRow>;
export type RowColumns = Infer<typeof RowColumns>;
export type RowsRequest = Infer<typeof RowsRequest>;
export type RowsPage = Infer<typeof RowsPage>;
export type FilterRowsRequest = Infer<typeof FilterRowsRequest>;
export type SearchResult = Infer<typeof SearchResult>;
export type EnvelopeDetail = Infer<typeof EnvelopeDetail>;
export type FrameDetail = Infer<typeof FrameDetail>;
export type RawBytesRequest = Infer<typeof RawBytesRequest>;
export type RawBytes = Infer<typeof RawBytes>;
export type NetworkChunk = Infer<typeof NetworkChunk>;
export type BlockSummary = Infer<typeof BlockSummary>;
export type InlineOptionsPayload = Infer<typeof InlineOptions>;
export type SegmentPayload = Infer<typeof Segment>;
export type BlockDetail = Infer<typeof BlockDetail>;
export type DiagnosticPayload = Infer<typeof Diagnostic>;
export type ToolResult = Infer<typeof ToolResult>;
export type SendToolResultsRequest = Infer<typeof SendToolResultsRequest>;
export type StartReplayRequest = Infer<typeof StartReplayRequest>;
export type ReplayAction = Infer<typeof ReplayAction>;
export type ReplayControlRequest = Infer<typeof ReplayControlRequest>;
export type ReplayState = Infer<typeof ReplayState>;
export type RunInFormatsRequest = Infer<typeof RunInFormatsRequest>;
export type BreakpointPayload = Infer<typeof Breakpoint>;
export type DiffRequest = Infer<typeof DiffRequest>;
export type DiffResult = Infer<typeof DiffResult>;
export type { SessionDiff };
export type SaveRecordingRequest = Infer<typeof SaveRecordingRequest>;
export type RenameRequest = Infer<typeof RenameRequest>;
export type ExportKind = Infer<typeof ExportKind>;
export type ExportRequest = Infer<typeof ExportRequest>;
export type SavedFile = Infer<typeof SavedFile>;
export type DownloadKind = Infer<typeof DownloadKind>;
export type DownloadRequest = Infer<typeof DownloadRequest>;
export type DownloadFile = Infer<typeof DownloadFile>;
export type AppInfo = Infer<typeof AppInfo>;
export type DemoAgentInfo = Infer<typeof DemoAgentInfo>;
export type SampleInfo = Infer<typeof SampleInfo>;
export type OpenSampleRequest = Infer<typeof OpenSampleRequest>;
export type SessionBatch = Infer<typeof SessionBatch>;
export type BlockChanges = Infer<typeof BlockChanges>;
export type BlockChangesRequest = Infer<typeof BlockChangesRequest>;
export type DiagnosticsSinceRequest = Infer<typeof DiagnosticsSinceRequest>;
export type DiagnosticsPage = Infer<typeof DiagnosticsPage>;
export type LiveStatus = Infer<typeof LiveStatus>;
export type ErrorEvent = Infer<typeof ErrorEvent>;
export type HostCommand = Infer<typeof HostCommand>;
export type SecretValues = Infer<typeof SecretValues>;
export type RequestTemplate = Infer<typeof RequestTemplate>;
export type SavedRequest = Infer<typeof SavedRequest>;
export type SaveRequestInput = Infer<typeof SaveRequestInput>;
export type VariableView = Infer<typeof VariableView>;
export type EnvironmentView = Infer<typeof EnvironmentView>;
export type VariableInput = Infer<typeof VariableInput>;
export type EnvironmentInput = Infer<typeof EnvironmentInput>;
export type EnvironmentsState = Infer<typeof EnvironmentsState>;
export type ResolveRequestInput = Infer<typeof ResolveRequestInput>;
export type RecentSession = Infer<typeof RecentSession>;
export type RecentSessions = Infer<typeof RecentSessions>;
