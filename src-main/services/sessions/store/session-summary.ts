import { droppedBytesOf } from '../../connection/failures';
import type {
  HarEntry,
  AgentInfoPayload,
  BlockDetail,
  BlockSummary,
  DiagnosticPayload,
  EnvelopeDetail,
  Failure,
  LegInfo,
  PendingToolPayload,
  RequestInfo,
  SessionDetail,
  SessionSource,
  SessionState,
  SessionSummary,
  TimelineRow,
} from '../../../../src-shared/contract/payloads';
import { SEVERITY_RANK } from '../../../../src-shared/diagnostics/severity';
import type { Diagnostic, Severity } from '../../../../src-shared/diagnostics/types';
import type { InlineOptions } from '../../../../src-shared/inline/types';
import { blockEndFacts, endStatusOf, type EndFacts, type EndStatus } from '../../../../src-shared/pipeline/end-status';
import { redactRequest, redactResponse } from '../../../../src-shared/recording/redact';
import type { HarEntrySummary } from '../../../../src-shared/recording/har';
import type { RecordedRequest } from '../../../../src-shared/recording/types';
import type { Envelope } from '../../../../src-shared/envelope/types';
import { unifiedLabel } from '../../../../src-shared/envelope/unified';
import type { AgentInfo, Block, PendingTool } from '../../../../src-shared/reconstruct/types';
import { limitJsonDepth } from '../../../../src-shared/json/tree';
import type { LegState } from './leg-state';

/**
 * Decoder objects and a session's state → contract payloads (its summary, detail, rows, blocks). Each mapping names the fields it sends, so a field
 * the decoder adds later never leaks across the boundary by accident and previews stay short.
 */

export const PREVIEW_CHARS = 120;

/**
 * How deep a value parsed from a stream (extras, a tool's input, a parsed block) crosses the
 * contract: its JSON check allows 64 levels and payloads wrap such values a few levels deep.
 * Deeper containers travel as their JSON text (limitJsonDepth), so nothing is lost.
 */
export const STREAM_JSON_DEPTH = 32;

export function shownJson<T>(value: T): T {
  return limitJsonDepth(value, STREAM_JSON_DEPTH) as T;
}

const VISIBLE: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The start of a text for a one-line cell: control characters written as escapes. */
export function preview(text: string, max = PREVIEW_CHARS): string {
  let cut = Math.min(text.length, max);
  const last = text.charCodeAt(cut - 1);
  if (cut < text.length && last >= 0xd800 && last <= 0xdbff) cut--;
  /* eslint-disable no-control-regex */
  const shown = text
    .slice(0, cut)
    .replace(/[\u0000-\u001f\u007f]/g, (c) => VISIBLE[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  /* eslint-enable no-control-regex */
  const clipped = cut < text.length ? `${shown}…` : shown;
  // Escapes can lengthen the text; the contract caps previews at 256.
  return clipped.length > 255 ? `${clipped.slice(0, 255)}…` : clipped;
}

function stringField(extras: Record<string, unknown>, key: string): string | undefined {
  const value = extras[key];
  return typeof value === 'string' ? value : undefined;
}

export interface Badge {
  count: number;
  severity: Severity;
}

export function addToBadge(badge: Badge | undefined, severity: Severity): Badge {
  if (!badge) return { count: 1, severity };
  return {
    count: badge.count + 1,
    severity: SEVERITY_RANK[severity] > SEVERITY_RANK[badge.severity] ? severity : badge.severity,
  };
}

export function toRow(
  envelope: Envelope,
  frameBytes: number,
  block: number | undefined,
  badge: Badge | undefined,
): TimelineRow {
  const row: TimelineRow = {
    seq: envelope.seq,
    leg: envelope.leg,
    frame: envelope.frame,
    receivedAt: envelope.receivedAt,
    agent: envelope.agent,
    type: envelope.type,
    final: envelope.final,
    preview: preview(envelope.delta),
    deltaLength: envelope.delta.length,
    bytes: frameBytes,
    diagnostics: badge?.count ?? 0,
  };
  const toolId = stringField(envelope.extras, 'id');
  const name = stringField(envelope.extras, 'name');
  if (toolId !== undefined) row.toolId = toolId;
  if (name !== undefined) row.name = name;
  if (envelope.control) row.control = envelope.control;
  if (envelope.unified) row.unified = unifiedLabel(envelope.unified);
  if (block !== undefined) row.block = block;
  if (badge) row.severity = badge.severity;
  return row;
}

export function toEnvelopeDetail(envelope: Envelope): EnvelopeDetail {
  const detail: EnvelopeDetail = {
    seq: envelope.seq,
    leg: envelope.leg,
    frame: envelope.frame,
    agent: envelope.agent,
    type: envelope.type,
    final: envelope.final,
    delta: envelope.delta,
    extras: shownJson(envelope.extras),
    dialect: envelope.dialect,
    byteStart: envelope.byteStart,
    byteEnd: envelope.byteEnd,
    receivedAt: envelope.receivedAt,
  };
  if (envelope.control) detail.control = envelope.control;
  if (envelope.unified) detail.unified = envelope.unified;
  return detail;
}

export function toPendingTools(tools: PendingTool[]): PendingToolPayload[] {
  return tools.map((t) => ({
    toolUseId: t.toolUseId,
    name: t.name,
    input: shownJson(t.input ?? null),
    ...(t.approvalId !== undefined ? { approvalId: t.approvalId } : {}),
    ...(t.answerHint !== undefined ? { answerHint: t.answerHint } : {}),
  }));
}

/** The fields a block summary and a block detail share that only some blocks have. */
type OptionalBlockFields = Pick<
  BlockSummary,
  'toolId' | 'name' | 'linkedBlock' | 'pendingTools' | 'parseError' | 'replacedBy' | 'replaces' | 'omittedChars'
>;

/**
 * Copy the optional fields a block has. Assigned one by one: spreading conditional objects
 * runs V8's generic object clone, and summaries are built for every changed block of a batch.
 */
function setOptionalFields(out: OptionalBlockFields, block: Block): void {
  if (block.toolId !== undefined) out.toolId = block.toolId;
  if (block.name !== undefined) out.name = block.name;
  if (block.linkedBlock !== undefined) out.linkedBlock = block.linkedBlock;
  if (block.pendingTools !== undefined) out.pendingTools = toPendingTools(block.pendingTools);
  if (block.parseError !== undefined) out.parseError = block.parseError;
  if (block.replacedBy !== undefined) out.replacedBy = block.replacedBy;
  if (block.replaces !== undefined) out.replaces = block.replaces;
  if (block.omittedChars !== undefined) out.omittedChars = block.omittedChars;
}

/** What a block's summary and its detail both say of it: which block, whose, and where its bytes are. */
function blockIdentity(
  block: Block,
): Pick<BlockSummary, 'id' | 'agent' | 'kind' | 'status' | 'leg' | 'byteStart' | 'byteEnd'> {
  const { id, agent, kind, status, leg, byteStart, byteEnd } = block;
  return { id, agent, kind, status, leg, byteStart, byteEnd };
}

/** `shownPreview`: the caller's cached preview (see SessionStore.blockSummary). */
export function toBlockSummary(
  block: Block,
  shownPreview = preview(block.content),
  length = block.content.length,
): BlockSummary {
  const summary: BlockSummary = {
    ...blockIdentity(block),
    length,
    preview: shownPreview,
    citations: block.citations.length,
    images: block.images.length,
    firstEnvelope: block.envelopes[0] ?? 0,
    lastEnvelope: block.envelopes.at(-1) ?? 0,
    envelopeCount: block.envelopes.length,
  };
  setOptionalFields(summary, block);
  if (block.segments) summary.segmentTypes = [...new Set(block.segments.map((seg) => seg.type))];
  return summary;
}

/** `held`: characters of a live text block the inline stage holds back (see SessionStore.inlineHeld). */
export function toBlockDetail(block: Block, held = 0): BlockDetail {
  const detail: BlockDetail = {
    ...blockIdentity(block),
    content: block.content,
    citations: block.citations.map((c) => ({
      citationType: c.citationType,
      citedText: c.citedText,
      fields: shownJson(c.fields),
      envelope: c.envelope,
    })),
    images: block.images.map((i) => ({ src: i.src, mediaType: i.mediaType, envelope: i.envelope })),
    envelopes: [...block.envelopes],
  };
  setOptionalFields(detail, block);
  const parsed = block.parsed;
  if (parsed !== undefined) detail.parsed = shownJson(parsed);
  if (block.segments) {
    detail.segments = block.segments.map((seg) => ({
      ...seg,
      metadata: { ...seg.metadata },
      params: { ...seg.params },
    }));
    if (held > 0) detail.held = held;
  }
  return detail;
}

export function toAgentPayload(agent: AgentInfo): AgentInfoPayload {
  return {
    uuid: agent.uuid,
    parent: agent.parent,
    ...(agent.model !== undefined ? { model: agent.model } : {}),
    ...(agent.format !== undefined ? { format: agent.format } : {}),
    ...(agent.userQuery !== undefined ? { userQuery: agent.userQuery } : {}),
    ...(agent.metaInitEnvelope !== undefined ? { metaInitEnvelope: agent.metaInitEnvelope } : {}),
    firstEnvelope: agent.firstEnvelope,
  };
}

export function toDiagnosticPayload(
  diagnostic: Diagnostic & { at: { fileOffset?: number; line?: number } },
): DiagnosticPayload {
  const at: DiagnosticPayload['at'] = {};
  for (const key of ['leg', 'byteStart', 'byteEnd', 'frame', 'envelope', 'block', 'fileOffset', 'line'] as const) {
    const value = diagnostic.at[key];
    if (value !== undefined) at[key] = value;
  }
  return { seq: diagnostic.seq, rule: diagnostic.rule, severity: diagnostic.severity, message: diagnostic.message, at };
}

/** How a session's source ended, for its end status (a file's legs carry their recorded ends). */
function sessionOutcome(
  state: SessionState,
  failure: Failure | undefined,
  last: LegState | undefined,
): EndFacts['outcome'] {
  if (state === 'stopped') return { kind: 'stopped' };
  if (state === 'failed') return { kind: 'failed', message: failure?.message ?? 'The source failed.' };
  switch (last?.end?.reason) {
    case 'stopped':
      return { kind: 'stopped' };
    case 'failed':
      return { kind: 'failed', message: last.failure?.message ?? last.end.message ?? 'The leg failed.' };
    case 'aborted':
      return { kind: 'cut', message: last.end.message ?? 'The leg was cut short.' };
    default:
      return undefined;
  }
}

const DISPLAY_BODY_CAP = 64 * 1024;

export function displayRequest(request: RecordedRequest): RequestInfo {
  const redacted = redactRequest(request);
  const info: RequestInfo = { method: redacted.method, url: redacted.url, headers: redacted.headers };
  if (redacted.body !== null) {
    info.body = redacted.body.length > DISPLAY_BODY_CAP ? redacted.body.slice(0, DISPLAY_BODY_CAP) : redacted.body;
    if (redacted.body.length > DISPLAY_BODY_CAP) info.bodyTruncated = true;
  }
  return info;
}

export function legInfo(leg: LegState): LegInfo {
  const info: LegInfo = {
    leg: leg.index,
    kind: leg.kind,
    request: leg.request ? displayRequest(leg.request) : null,
    // Set-Cookie, X-Api-Key and the like never reach the page (docs/security.md, "Secrets").
    response: redactResponse(leg.response),
    startedAt: leg.startedAt,
    bytes: leg.raw.bytes,
    chunks: leg.raw.count,
    frames: leg.frames.count,
    format: leg.format,
  };
  if (leg.detection) info.detection = { ...leg.detection };
  if (leg.endedAt !== undefined) info.endedAt = leg.endedAt;
  if (leg.end) info.end = leg.end;
  if (leg.failure) info.failure = leg.failure;
  return info;
}

/** The options as the contract carries them (a fresh copy: payloads are plain data). */
function toInlinePayload(options: InlineOptions): NonNullable<SessionSummary['inline']> {
  return { mode: options.mode, tools: options.tools.map((t) => ({ name: t.name, required: [...t.required] })) };
}

/** What a session summary is made of. */
export interface SummarySubjects {
  readonly id: string;
  readonly title: string;
  readonly source: SessionSource;
  readonly state: SessionState;
  readonly createdAt: number;
  readonly generation: number;
  readonly failure?: Failure;
  readonly recordingPath?: string;
  readonly legs: readonly LegState[];
  readonly envelopeCount: number;
  blocks(): readonly Block[];
  inline(): InlineOptions;
  severityCounts(): Record<Severity, number>;
  /** What the findings say was lost of the stream; undefined when nothing was. */
  lostData(): string | undefined;
}

/** `answered`: the run's pause was answered (results sent) and no continuation followed. */
export function sessionSummary(session: SummarySubjects, awaitingTools: boolean, answered = false): SessionSummary {
  const { legs } = session;
  const endStatus = (): EndStatus => {
    const last = legs.at(-1);
    const outcome = sessionOutcome(session.state, session.failure, last);
    const blocks = blockEndFacts(session.blocks(), last?.index ?? 0);
    const lost = session.lostData() ?? droppedBytesOf(last?.failure).lostData;
    return endStatusOf({
      stream: last?.stream ?? null,
      ...blocks,
      awaitingTools: awaitingTools || answered,
      answered,
      ...(lost ? { lostData: lost } : {}),
      ...(outcome ? { outcome } : {}),
    });
  };
  // The session's format is its first decoded leg's, with what chose it.
  const decoded = legs.find((l) => l.format !== null);
  const summary: SessionSummary = {
    id: session.id,
    title: session.title,
    source: session.source,
    state: session.state,
    createdAt: session.createdAt,
    legs: legs.length,
    envelopes: session.envelopeCount,
    bytes: legs.reduce((sum, leg) => sum + leg.raw.bytes, 0),
    format: decoded?.format ?? null,
    diagnostics: session.severityCounts(),
    awaitingTools,
    inline: toInlinePayload(session.inline()),
  };
  if (decoded?.detection) summary.detection = { ...decoded.detection };
  const status = legs.at(-1)?.response?.status;
  if (status !== undefined) summary.httpStatus = status;
  if (session.recordingPath !== undefined) summary.recordingPath = session.recordingPath;
  // A file's or replay's session shows its last leg's failure (an error page, with its body) as a live one does.
  const failure = session.failure ?? legs.at(-1)?.failure;
  if (failure) summary.failure = failure;
  if (session.state === 'complete' || session.state === 'stopped' || session.state === 'failed')
    summary.end = endStatus();
  if (session.generation) summary.generation = session.generation;
  const blocks = session.blocks().length;
  if (blocks > 0) summary.blocks = blocks;
  return summary;
}

export function sessionDetail(
  summary: SessionSummary,
  legs: readonly LegState[],
  agents: readonly AgentInfo[],
  pending: SessionDetail['pendingTools'],
): SessionDetail {
  const first = legs[0]?.request;
  return {
    summary,
    request: first ? displayRequest(first) : null,
    legs: legs.map(legInfo),
    agents: agents.map(toAgentPayload),
    pendingTools: pending,
  };
}

/** A HAR entry to choose from, its texts cut to what the contract carries. */
export function harEntryPayload(entry: HarEntrySummary): HarEntry {
  return {
    index: entry.index,
    method: entry.method.slice(0, 64),
    url: entry.url.slice(0, 8192),
    status: Number.isInteger(entry.status) ? entry.status : 0,
    mimeType: entry.mimeType.slice(0, 512),
    size: Number.isInteger(entry.size) ? entry.size : -1,
    isStream: entry.isStream,
    hasBody: entry.hasBody,
    startedDateTime: entry.startedDateTime.slice(0, 64),
  };
}
