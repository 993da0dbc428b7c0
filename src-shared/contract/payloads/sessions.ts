import { DETECTION_BASIS_NAMES, EVENT_DATA_NAMES } from '../../dialects/detection';
import { END_STATUS_KINDS } from '../../pipeline/end-status';
import { FAILURE_KIND_NAMES } from '../failure-kinds';
import type { Infer } from '../schema';
import { Count, DialectId, HeaderTable, InlineOptions, SessionId, SeverityCounts } from './common';
import { HAR_ENTRIES_MAX, HarEntry } from './sources';
import * as s from '../schema';

/** Sessions: their state, source, end status, summary and detail (legs, agents, paused tools). */

export const SessionState = s.literal('connecting', 'streaming', 'loading', 'complete', 'stopped', 'failed');
export type SessionState = Infer<typeof SessionState>;

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
export type Failure = Infer<typeof Failure>;

export const SessionSource = s.variant('kind', {
  live: s.object({ method: s.string(), url: s.string() }),
  /** `uploaded`: a copy the browser host made of an upload; its path is internal, not the user's file. */
  file: s.object({
    path: s.string(),
    importer: s.string(),
    uploaded: s.optional(s.boolean()),
    /** A HAR file's entries opened as the legs, in order. */
    entries: s.optional(s.array(s.index(), { max: HAR_ENTRIES_MAX })),
    /** The `check --junit` report that opened the recording (its failures are among the findings). */
    report: s.optional(s.string()),
    /** The live run whose received bytes this is, copied to be decoded again (the path is internal, as an upload's copy). */
    copyOf: s.optional(s.object({ method: s.string(), url: s.string() })),
  }),
  replay: s.object({ of: SessionId }),
});
export type SessionSource = Infer<typeof SessionSource>;

/** How a session ended (pipeline/end-status.ts): absent while it is still receiving. */
export const EndStatus = s.object({
  kind: s.literal(...END_STATUS_KINDS),
  label: s.string({ max: 100 }),
  reason: s.string({ max: 4096 }),
});
export type EndStatusPayload = Infer<typeof EndStatus>;

/** What chose a leg's dialect (dialects/detection.ts): the bytes, a header, the URL, the user, or nothing (the fallback). */
export const Detection = s.object({
  by: s.literal(...DETECTION_BASIS_NAMES),
  /** The header or URL path ending that matched, as the dialect declares it. */
  detail: s.optional(s.string({ max: 200 })),
  /** What the events carried, for a dialect labelled by it (the fallback: JSON or text events). */
  data: s.optional(s.literal(...EVENT_DATA_NAMES)),
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
  /** What chose `format` (absent until a leg's dialect is decided). */
  detection: s.optional(Detection),
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
  /**
   * A HAR file of several entries waiting for the user to choose which to open (the entries
   * are in the session's detail); it has no legs until openHarEntries.
   */
  choosingHarEntries: s.optional(s.boolean()),
});
export type SessionSummary = Infer<typeof SessionSummary>;

/** A request as shown to the user: secrets in headers and URL are redacted. */
export const RequestInfo = s.object({
  method: s.string(),
  url: s.string(),
  headers: HeaderTable,
  body: s.optional(s.string()),
  bodyTruncated: s.optional(s.boolean()),
});
export type RequestInfo = Infer<typeof RequestInfo>;

export const ResponseInfo = s.object({
  status: s.number({ integer: true }),
  statusText: s.string(),
  headers: HeaderTable,
});
export type ResponseInfo = Infer<typeof ResponseInfo>;

export const LegEnd = s.object({
  reason: s.literal('complete', 'stopped', 'failed', 'aborted'),
  message: s.optional(s.string()),
});
export type LegEndInfo = Infer<typeof LegEnd>;

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
  detection: s.optional(Detection),
  end: s.optional(LegEnd),
  failure: s.optional(Failure),
});
export type LegInfo = Infer<typeof LegInfo>;

export const AgentInfo = s.object({
  uuid: s.string(),
  parent: s.nullable(s.string()),
  model: s.optional(s.string()),
  format: s.optional(s.string()),
  userQuery: s.optional(s.string()),
  metaInitEnvelope: s.optional(Count()),
  firstEnvelope: Count(),
});
export type AgentInfoPayload = Infer<typeof AgentInfo>;

export const PendingTool = s.object({
  toolUseId: s.string(),
  name: s.string(),
  input: s.json<unknown>(),
  /** Set when the run waits for the call's approval (approve or deny), not for its result: the approval's id. */
  approvalId: s.optional(s.string()),
  /** Set when the call takes only answers of one form: what to give, as its dialect says it. */
  answerHint: s.optional(s.string()),
});
export type PendingToolPayload = Infer<typeof PendingTool>;

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
  /**
   * Set when the paused leg's dialect continues its runs itself (the AI SDK, AG-UI): its label.
   * The answer is then the run's own request again with the answers (to `defaultPath`), and
   * there is no path or extra body to choose.
   */
  continuedBy: s.optional(s.string()),
});
export type PendingTools = Infer<typeof PendingTools>;

export const SessionDetail = s.object({
  summary: SessionSummary,
  request: s.nullable(RequestInfo),
  legs: s.array(LegInfo),
  agents: s.array(AgentInfo),
  pendingTools: s.nullable(PendingTools),
  /** The entries of a HAR waiting for a choice (SessionSummary.choosingHarEntries). */
  harEntries: s.optional(s.array(HarEntry, { max: HAR_ENTRIES_MAX })),
});
export type SessionDetail = Infer<typeof SessionDetail>;
