import { piecesMatching } from '../../../../src-shared/reconstruct/text-search';
import { blockEndFacts, endStatusOf, type EndFacts, type EndStatus, type StreamEnd } from '../../../../src-shared/pipeline/end-status';
import type {
  BlockChanges,
  BlockSummary,
  DiagnosticsPage,
  Failure,
  FrameDetail,
  LegEndInfo,
  LegInfo,
  RawBytes,
  RequestInfo,
  SessionBatch,
  SessionDetail,
  SessionSource,
  SessionState,
  SessionSummary,
  TimelineRow,
} from '../../../../src-shared/contract/payloads';
import type { Diagnostic, Severity } from '../../../../src-shared/diagnostics/types';
import type { DialectId } from '../../../../src-shared/dialects/registry';
import type { Envelope } from '../../../../src-shared/envelope/types';
import { createSessionDecoder, type LegDecoder, type SessionDecoder } from '../../../../src-shared/pipeline/session-decoder';
import type { FormatChoice } from '../../../../src-shared/pipeline/types';
import { DEFAULT_INLINE_OPTIONS, type InlineOptions } from '../../../../src-shared/inline/types';
import type { AgentInfo, Block } from '../../../../src-shared/reconstruct/types';
import { encodeBase64 } from '../../../../src-shared/recording/base64';
import { redactRequest } from '../../../../src-shared/recording/redact';
import type { RecordedRequest, RecordedResponse } from '../../../../src-shared/recording/types';
import { LostData } from '../../../../src-shared/recording/diagnostics';
import { droppedBytesOf } from '../../connection/failures';
import type { DiffInput } from '../../../../src-shared/diff/types';
import { RowColumnsBuilder, type RowColumns } from '../../../../src-shared/contract/row-columns';
import { createSseFramer } from '../../../../src-shared/sse/framer';
import { nameAgents } from '../../../../src-shared/agents/names';
import { envelopeReader, type Expr } from '../../../../src-shared/filter';
import { fieldsOf } from '../../../../src-shared/filter/ast';
import { compileFilter } from '../../../../src-shared/filter/evaluate';
import { findingsByEnvelope } from '../../../../src-shared/filter/subjects';
import type { Frame } from '../../../../src-shared/sse/types';
import { UintColumn } from './columns';
import { EnvelopeTable, FrameTable } from './envelope-table';
import { createRawChunks, type RawChunks } from './raw-chunks';
import { BlockContents } from './block-contents';
import { SpoolFile, type OpenSpool } from './spool-file';
import { RecordingFile } from './recording-file';
import type { FileSpan } from '../../importers/types';
import { DiagnosticStore } from './diagnostic-store';
import { Badges, frameBadgeKey, frameOfBadgeKey } from './badges';
import { addToBadge, preview, PREVIEW_CHARS, toAgentPayload, toBlockDetail, toBlockSummary, toDiagnosticPayload, toEnvelopeDetail, toRow, type Badge } from './views';

/**
 * Everything one session holds, fed by the shared decoder: its legs (each with the raw bytes
 * kept once, on disk, behind an index of the received chunks), a compact frame index, the
 * envelopes (their deltas on disk too), the blocks and agents (the reconstructor's live
 * objects; a finished block's content is read back from disk), diagnostics and statistics.
 * Contents are handed out on demand, by id; what changed since the last batch is tracked for
 * the batched row updates.
 */

export type LegKind = LegInfo['kind'];


/** How a session's source ended, for its end status (a file's legs carry their recorded ends). */
function sessionOutcome(state: SessionState, failure: Failure | undefined, last: LegState | undefined): EndFacts['outcome'] {
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

export interface LegState {
  readonly index: number;
  readonly kind: LegKind;
  /** The request as sent, secrets intact: it never leaves main unredacted. */
  readonly request: RecordedRequest | null;
  response: RecordedResponse | null;
  readonly startedAt: number;
  endedAt?: number;
  readonly raw: RawChunks;
  /** Bytes of a response that was not decoded (an error page), kept apart from the stream. */
  readonly rejected: RawChunks;
  /** The leg's frames (without their data) and the first envelope of each. */
  readonly frames: FrameTable;
  format: DialectId | null;
  end?: LegEndInfo;
  failure?: Failure;
  /** What ended the leg's stream, once the leg ended. */
  stream?: StreamEnd;
  lastEventId: string;
  retry: number | null;
  decoder: LegDecoder | null;
  /** Seq of the leg's first envelope (envelopeCount at the time the leg opened). */
  readonly firstEnvelope: number;
  /** Envelopes that are agent content (not [DONE], error frames or other control items). */
  contentEnvelopes: number;
}

export interface SessionInit {
  id: string;
  title: string;
  source: SessionSource;
  createdAt: number;
  format?: FormatChoice;
  inline?: InlineOptions;
  /** Counts the times the session started over from empty (see SessionSummary.generation). */
  generation?: number;
  /**
   * The recording the session is read from: the raw bytes of its file legs are read back from
   * their chunk records there (every chunk pushed to them comes with its record), not copied to
   * a spool file.
   */
  recording?: string;
  /** Creates the session's spool files (temp files by default; tests inject failing ones). */
  openSpool?: OpenSpool;
}

export interface PendingToolsState {
  leg: number;
  block: Block;
  agentUuid: string;
}

export interface SessionData {
  readonly id: string;
  /** The user may rename a session. */
  title: string;
  readonly source: SessionSource;
  readonly createdAt: number;
  readonly generation: number;
  /** The format the user chose for decoding (a replay decodes its source the same way). */
  readonly formatChoice: FormatChoice;
  state: SessionState;
  failure?: Failure;
  recordingPath?: string;
  readonly legs: readonly LegState[];
  readonly envelopeCount: number;
  readonly finished: boolean;

  openLeg(kind: LegKind, request: RecordedRequest | null, startedAt: number): LegState;
  setResponse(leg: number, response: RecordedResponse): void;
  /**
   * `continues`: the bytes are the next part of the last chunk pushed (see RawChunks.extendLast).
   * `record`: where the chunk's record is in the session's recording (SessionInit.recording).
   */
  push(leg: number, bytes: Uint8Array, receivedAt: number, continues?: boolean, record?: FileSpan): void;
  keepRejected(leg: number, bytes: Uint8Array, receivedAt: number): void;
  endLeg(leg: number, end: LegEndInfo, failure?: Failure): void;
  /** No more legs: let the reconstructor report what stayed open. */
  finish(): void;
  addDiagnostics(diagnostics: readonly Diagnostic[]): void;
  inline(): InlineOptions;
  /** Read the text blocks again with other inline options; their findings replace the previous mode's. */
  setInline(options: InlineOptions): void;
  /** Characters the inline stage holds back in a live text block. */
  inlineHeld(block: Block): number;

  envelope(seq: number): Envelope | undefined;
  /** An envelope's type and agent, without building the whole envelope. */
  envelopeFacts(seq: number): { seq: number; type: string; agent: string } | undefined;
  /** The envelope types in order of first appearance. */
  envelopeTypes(): string[];
  /** The envelope a finding belongs to: its own, else the first of its frame. */
  findingEnvelope(diagnostic: Diagnostic): number | undefined;
  row(seq: number): TimelineRow | undefined;
  rows(start: number, count: number): TimelineRow[];
  /** Envelopes a filter (docs/filters.md) lets through, at most `max`. */
  filter(filter: Expr, max: number): { seqs: number[]; truncated: boolean };
  frame(leg: number, seq: number): FrameDetail | undefined;
  rawBytes(leg: number, start: number, end: number, cap: number): RawBytes;
  blocks(agent?: string): readonly Block[];
  block(id: number): Block | undefined;
  blockSummary(block: Block): BlockSummary;
  /** Summaries of the blocks that opened or changed after revision `since`. */
  blockChanges(since: number): BlockChanges;
  agents(): readonly AgentInfo[];
  diagnostics(): readonly Diagnostic[];
  /** Findings from `from` on, or the whole list when it was replaced since `resets` (see DiagnosticsPage). */
  diagnosticsSince(from: number, resets: number): DiagnosticsPage;
  stats(): unknown;
  pendingTools(): PendingToolsState | null;
  /** Everything decoded, materialised for the block diff (frames rebuilt from the raw bytes). */
  diffInput(): DiffInput;
  severityCounts(): Record<Severity, number>;

  /** `awaitingTools`: the run waits for results; `answered`: its pause was answered, without a continuation after it. */
  summary(extra?: { awaitingTools?: boolean; answered?: boolean }): SessionSummary;
  detail(pending: SessionDetail['pendingTools']): SessionDetail;
  /**
   * The changes since the last batch (null when nothing changed): at most `maxRows` new rows
   * and at most `maxChanges` changed rows; the rest waits for the next batch (`batchPending`),
   * so one batch never holds up the thread for long. Blocks and findings travel on demand.
   */
  takeBatch(maxRows: number, maxChanges?: number): SessionBatch | null;
  /** Something is left for another batch. */
  readonly batchPending: boolean;
  /** Called whenever something a batch would carry changed. */
  onChange: () => void;
  /** The session was closed: its spool files are deleted, and nothing may be read from it any more. */
  dispose(): void;
  /** Bytes the envelope and frame indexes take in memory (what the benchmarks report). */
  indexBytes(): { envelopes: number; frames: number };
}

const DISPLAY_BODY_CAP = 64 * 1024;

/**
 * Batches carry the full rows of the session's first rows and, for sessions that stream (a
 * live source, a replay), of each batch's newest rows: a screenful of a table at the top or
 * following the stream (more than a 4K screen's worth). A file's table stays at the top while
 * it loads; rows below load by page when scrolled to.
 */
export const FULL_HEAD_ROWS = 256;
export const FULL_TAIL_ROWS = 128;

export function displayRequest(request: RecordedRequest): RequestInfo {
  const redacted = redactRequest(request);
  const info: RequestInfo = { method: redacted.method, url: redacted.url, headers: redacted.headers };
  if (redacted.body !== null) {
    info.body = redacted.body.length > DISPLAY_BODY_CAP ? redacted.body.slice(0, DISPLAY_BODY_CAP) : redacted.body;
    if (redacted.body.length > DISPLAY_BODY_CAP) info.bodyTruncated = true;
  }
  return info;
}

export function createSessionData(init: SessionInit): SessionData {
  const legs: LegState[] = [];
  /** The legs' raw bytes (one leg after the other, unless they are read from the recording), and the envelopes' deltas. */
  const rawSpool = new SpoolFile('raw bytes', init.openSpool);
  const recording = init.recording !== undefined ? new RecordingFile(init.recording) : null;
  const textSpool = new SpoolFile('envelope text', init.openSpool);
  const envelopes = new EnvelopeTable((leg) => legs[leg]?.frames, textSpool);
  const contents = new BlockContents(envelopes);
  /** How many of a block's envelopes already have it as their block (by block id). */
  const mappedEnvelopes = new UintColumn();
  const awaitingBlocks: number[] = [];
  /**
   * Previews of open blocks whose content is longer than a preview: the first characters never
   * change once there, and taking them again would flatten the block's whole content string
   * (an appended rope) on every batch, which is quadratic for a long block. A finished block's
   * preview is read from its first deltas instead.
   */
  const blockPreviews = new Map<number, string>();
  const agentsByUuid = new Map<string, AgentInfo>();
  const diagnostics = new DiagnosticStore(new SpoolFile('findings', init.openSpool));
  const badgeByEnvelope = new Badges();
  const badgeByFrame = new Badges();
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const lostData = new LostData();
  let finished = false;
  /** Bumps whenever a block opens or changes; `blockStamps` holds each block's last (by id). */
  let blockRevision = 0;
  const blockStamps = new UintColumn();
  /** Times the findings were replaced (the inline mode changed). */
  let diagnosticResets = 0;

  // Batch bookkeeping.
  let sentRows = 0;
  const dirtyRows = new Set<number>();
  const dirtyAgents = new Set<string>();
  let sentBlockRevision = 0;
  let sentDiagnostics = 0;
  let sentResets = 0;

  // Decoder callbacks run only once data exists (legs are opened through it).
  const notify = (): void => data.onChange();
  const touchRow = (seq: number): void => {
    if (seq < sentRows) dirtyRows.add(seq);
  };

  const addDiagnostic = (diagnostic: Diagnostic): void => {
    const stored: Diagnostic = { ...diagnostic, seq: diagnostics.count };
    diagnostics.add(stored);
    counts[stored.severity] += 1;
    lostData.add(stored);
    const { envelope, frame } = stored.at;
    if (envelope !== undefined) {
      badgeByEnvelope.add(envelope, stored.severity);
      touchRow(envelope);
    } else if (frame !== undefined) {
      const leg = stored.at.leg ?? 0;
      badgeByFrame.add(frameBadgeKey(leg, frame), stored.severity);
      const first = legs[leg]?.frames.firstEnvelope(frame) ?? -1;
      if (first >= 0) touchRow(first);
    }
    notify();
  };

  const decoder: SessionDecoder = createSessionDecoder(
    {
      onFrame(frame, leg) {
        const state = legs[leg];
        if (!state) return;
        state.frames.add(frame);
      },
      onEnvelope(envelope) {
        envelopes.add(envelope);
        const state = legs[envelope.leg];
        state?.frames.noteEnvelope(envelope.frame, envelope.seq);
        if (state && !envelope.control) state.contentEnvelopes += 1;
        notify();
      },
      onBlock(block) {
        // A block is new until it has a stamp (revisions start at 1).
        if (blockStamps.get(block.id) === 0 && block.kind === 'awaiting_frontend_tools') awaitingBlocks.push(block.id);
        let mapped = mappedEnvelopes.get(block.id);
        for (; mapped < block.envelopes.length; mapped++) {
          const seq = block.envelopes[mapped] as number;
          if (envelopes.block(seq) < 0) {
            envelopes.setBlock(seq, block.id);
            touchRow(seq);
          }
        }
        mappedEnvelopes.set(block.id, mapped);
        // A finished block's preview is read from its first deltas on disk: no need to keep it.
        const released = !contents.onDisk(block) && contents.release(block);
        if (released) {
          blockPreviews.delete(block.id);
          // A finished block's envelope list is done growing (but for a late citation): an exact copy drops its spare room.
          block.envelopes = block.envelopes.slice();
        }
        blockStamps.set(block.id, ++blockRevision);
        notify();
      },
      onAgent(agent) {
        agentsByUuid.set(agent.uuid, agent);
        dirtyAgents.add(agent.uuid);
        notify();
      },
      onDiagnostic: addDiagnostic,
    },
    { ...(init.format ? { format: init.format } : {}), inline: init.inline ?? DEFAULT_INLINE_OPTIONS },
  );

  /** Forget every finding, then add `kept` again (renumbered): badges and counts follow. */
  const replaceDiagnostics = (kept: readonly Diagnostic[]): void => {
    for (const seq of badgeByEnvelope.keys()) touchRow(seq);
    for (const key of badgeByFrame.keys()) {
      const { leg, frame } = frameOfBadgeKey(key);
      const first = legs[leg]?.frames.firstEnvelope(frame) ?? -1;
      if (first >= 0) touchRow(first);
    }
    diagnostics.clear();
    badgeByEnvelope.clear();
    badgeByFrame.clear();
    counts.error = counts.warning = counts.info = 0;
    lostData.clear();
    diagnosticResets += 1;
    for (const d of kept) addDiagnostic(d);
  };

  const legAt = (leg: number): LegState => {
    const state = legs[leg];
    if (!state) throw new Error(`Session ${init.id} has no leg ${leg}`);
    return state;
  };

  /** An envelope's findings, and those of its frame on the frame's first envelope. */
  const badgeOf = (seq: number): Badge | undefined => {
    const badge = badgeByEnvelope.get(seq);
    const leg = envelopes.leg(seq);
    const frame = envelopes.frame(seq);
    if (legs[leg]?.frames.firstEnvelope(frame) !== seq) return badge;
    const frameBadge = badgeByFrame.get(frameBadgeKey(leg, frame));
    if (!frameBadge) return badge;
    return badge ? { count: badge.count + frameBadge.count, severity: addToBadge(badge, frameBadge.severity).severity } : frameBadge;
  };

  const row = (seq: number): TimelineRow | undefined => {
    const envelope = envelopes.get(seq);
    if (!envelope) return undefined;
    const block = envelopes.block(seq);
    return toRow(envelope, envelope.byteEnd - envelope.byteStart, block < 0 ? undefined : block, badgeOf(seq));
  };

  /** Rows [start, end) in compact columns, without materialising envelopes. */
  const rowColumns = (start: number, end: number): RowColumns => {
    const builder = new RowColumnsBuilder();
    for (let seq = start; seq < end; seq++) {
      const badge = badgeOf(seq);
      const control = envelopes.control(seq);
      builder.add({
        receivedAt: envelopes.receivedAt(seq),
        agent: envelopes.agent(seq),
        type: envelopes.type(seq),
        final: envelopes.final(seq),
        ...(control ? { control } : {}),
        diagnostics: badge?.count ?? 0,
        ...(badge ? { severity: badge.severity } : {}),
      });
    }
    return builder.build();
  };

  const legInfo = (leg: LegState): LegInfo => {
    const info: LegInfo = {
      leg: leg.index,
      kind: leg.kind,
      request: leg.request ? displayRequest(leg.request) : null,
      response: leg.response ? { status: leg.response.status, statusText: leg.response.statusText, headers: leg.response.headers } : null,
      startedAt: leg.startedAt,
      bytes: leg.raw.bytes,
      chunks: leg.raw.count,
      frames: leg.frames.count,
      format: leg.format,
    };
    if (leg.endedAt !== undefined) info.endedAt = leg.endedAt;
    if (leg.end) info.end = leg.end;
    if (leg.failure) info.failure = leg.failure;
    return info;
  };

  /** Envelopes carrying part of a match in a block's reassembled text (a word split across deltas). */
  const textInBlocks = (needle: string): ((subject: { envelope: Envelope }) => boolean) => {
    const hits = new Set<number>();
    for (const block of data.blocks()) {
      // Citations and images attach to the block without adding to its text.
      const pieces = block.envelopes.filter((seq) => envelopes.type(seq) === block.kind).map((seq) => ({ seq, length: envelopes.delta(seq).length }));
      for (const seq of piecesMatching(block.content, pieces, needle)) hits.add(seq);
    }
    return (subject) => hits.has(subject.envelope.seq);
  };
  const data: SessionData = {
    id: init.id,
    title: init.title,
    source: init.source,
    createdAt: init.createdAt,
    formatChoice: init.format ?? 'auto',
    generation: init.generation ?? 0,
    state: 'connecting',
    legs,
    get envelopeCount() {
      return envelopes.count;
    },
    get finished() {
      return finished;
    },
    onChange: () => {},
    dispose() {
      rawSpool.close();
      textSpool.close();
      recording?.close();
    },
    indexBytes: () => ({ envelopes: envelopes.indexBytes, frames: legs.reduce((sum, leg) => sum + leg.frames.indexBytes, 0) }),
    openLeg(kind: LegKind, request: RecordedRequest | null, startedAt: number): LegState {
      if (finished) throw new Error('This session is finished; no further leg can be added');
      const previous = legs.at(-1);
      if (previous?.decoder) throw new Error(`Leg ${previous.index} is still open`);
      const legDecoder = decoder.startLeg();
      const state: LegState = {
        index: legDecoder.leg,
        kind,
        request,
        response: null,
        startedAt,
        // A file session's legs are read from its recording; a leg answered live after them is spooled.
        raw: createRawChunks(recording && kind === 'file' ? { recording, leg: legDecoder.leg } : rawSpool),
        rejected: createRawChunks(),
        frames: new FrameTable(),
        format: null,
        lastEventId: '',
        retry: null,
        decoder: legDecoder,
        firstEnvelope: envelopes.count,
        contentEnvelopes: 0,
      };
      legs.push(state);
      return state;
    },
    setResponse(leg: number, response: RecordedResponse) {
      legAt(leg).response = response;
    },
    push(leg: number, bytes: Uint8Array, receivedAt: number, continues = false, record?: FileSpan) {
      const state = legAt(leg);
      if (!state.decoder) throw new Error(`Leg ${leg} has ended`);
      if (continues && state.raw.count > 0) state.raw.extendLast(bytes);
      else state.raw.append(bytes, receivedAt, record);
      state.decoder.push(bytes, receivedAt);
    },
    keepRejected(leg: number, bytes: Uint8Array, receivedAt: number) {
      legAt(leg).rejected.append(bytes, receivedAt);
    },
    endLeg(leg: number, end: LegEndInfo, failure?: Failure) {
      const state = legAt(leg);
      if (!state.decoder) return;
      const result = state.decoder.end();
      state.decoder = null;
      state.frames.trim();
      state.format = result.format;
      state.lastEventId = result.lastEventId;
      state.retry = result.retry;
      state.stream = result.stream;
      state.end = end;
      state.endedAt = legs[leg]?.raw.count ? Math.max(state.startedAt, lastReceive(state)) : state.startedAt;
      if (failure) state.failure = failure;
      data.onChange();
    },
    finish() {
      if (finished) return;
      for (const leg of legs) if (leg.decoder) data.endLeg(leg.index, { reason: 'stopped', message: 'The session was closed' });
      finished = true;
      decoder.finish();
      envelopes.trim();
      data.onChange();
    },
    addDiagnostics(list: readonly Diagnostic[]) {
      for (const d of list) addDiagnostic(d);
    },
    inline: () => decoder.inline(),
    setInline(options: InlineOptions) {
      replaceDiagnostics(diagnostics.all().filter((d) => !d.rule.startsWith('inline.')));
      decoder.setInline(options);
      notify();
    },
    inlineHeld: (block: Block) => decoder.inlineHeld(block),
    envelope: (seq: number) => envelopes.get(seq),
    envelopeFacts: (seq: number) => (seq >= 0 && seq < envelopes.count ? { seq, type: envelopes.type(seq), agent: envelopes.agent(seq) } : undefined),
    envelopeTypes() {
      const types = new Set<string>();
      for (let seq = 0; seq < envelopes.count; seq++) types.add(envelopes.type(seq));
      return [...types];
    },
    findingEnvelope({ at }: Diagnostic) {
      if (at.envelope !== undefined) return at.envelope;
      const first = at.frame !== undefined ? (legs[at.leg ?? 0]?.frames.firstEnvelope(at.frame) ?? -1) : -1;
      return first >= 0 ? first : undefined;
    },
    row,
    rows(start: number, count: number) {
      const out: TimelineRow[] = [];
      const end = Math.min(envelopes.count, start + count);
      for (let seq = start; seq < end; seq++) out.push(row(seq) as TimelineRow);
      return out;
    },
    filter(filter: Expr, max: number) {
      const match = compileFilter(filter, { ...envelopeReader(), textAcross: textInBlocks });
      // Agent names and findings by envelope cost a pass of their own: only when the filter reads them.
      const fields = fieldsOf(filter);
      const readsAgents = fields.has('agent') || fields.has('text');
      const seen = new Set<string>();
      if (readsAgents) for (let seq = 0; seq < envelopes.count; seq++) seen.add(envelopes.agent(seq));
      const names = readsAgents ? nameAgents(decoder.agents(), [...seen]) : new Map<string, { name: string }>();
      const findings = [...fields].some((f) => f.startsWith('finding.')) ? findingsByEnvelope(diagnostics.all(), (leg, frame) => legs[leg]?.frames.firstEnvelope(frame)) : new Map<number, Diagnostic[]>();
      const startedAt = legs[0]?.startedAt ?? 0;
      const seqs: number[] = [];
      for (let seq = 0; seq < envelopes.count; seq++) {
        const envelope = envelopes.get(seq);
        if (!envelope) continue;
        const block = envelopes.block(seq);
        const subject = {
          envelope,
          agentName: names.get(envelope.agent)?.name ?? envelope.agent,
          block: block < 0 ? undefined : decoder.blocks()[block],
          findings: findings.get(seq) ?? [],
          time: envelope.receivedAt > 0 ? Math.max(0, envelope.receivedAt - startedAt) : 0,
        };
        if (!match(subject)) continue;
        if (seqs.length === max) return { seqs, truncated: true };
        seqs.push(seq);
      }
      return { seqs, truncated: false };
    },
    frame(leg: number, seq: number): FrameDetail | undefined {
      const state = legs[leg];
      const compact = state?.frames.get(seq);
      if (!state || !compact) return undefined;
      const { event, data, dataLines, maxDataLineBytes } = reframe(state.raw.slice(compact.byteStart, compact.byteEnd), compact.byteStart === 0);
      const { byteStart, byteEnd, chunkFirst, chunkLast, receivedAt, id } = compact;
      return { leg, seq, byteStart, byteEnd, chunkFirst, chunkLast, receivedAt, event, id, dataLines, maxDataLineBytes, data };
    },
    rawBytes(leg: number, start: number, end: number, cap: number): RawBytes {
      const state = legAt(leg);
      const from = Math.min(start, state.raw.bytes);
      const wanted = Math.min(Math.max(end, from), state.raw.bytes);
      const to = Math.min(wanted, from + cap);
      return {
        leg,
        byteStart: from,
        byteEnd: to,
        base64: encodeBase64(state.raw.slice(from, to)),
        truncated: to < wanted,
        chunks: state.raw.overlapping(from, Math.max(to, from + 1)),
      };
    },
    blocks: (agent?: string) => {
      const all = decoder.blocks();
      return agent === undefined ? all : all.filter((b) => b.agent === agent);
    },
    block: (id: number) => decoder.blocks()[id],
    blockSummary(block: Block): BlockSummary {
      let shown = blockPreviews.get(block.id);
      const length = contents.length(block);
      if (shown === undefined) {
        shown = preview(contents.head(block, PREVIEW_CHARS + 1));
        if (length > PREVIEW_CHARS && !contents.onDisk(block)) blockPreviews.set(block.id, (shown = detached(shown)));
      }
      return toBlockSummary(block, shown, length);
    },
    blockChanges(since: number): BlockChanges {
      const blocks: BlockSummary[] = [];
      if (since < blockRevision) {
        for (const block of decoder.blocks()) if (blockStamps.get(block.id) > since) blocks.push(data.blockSummary(block));
      }
      return { revision: blockRevision, blocks };
    },
    agents: () => decoder.agents(),
    diagnostics: () => diagnostics.all(),
    diagnosticsSince(from: number, resets: number): DiagnosticsPage {
      const start = resets === diagnosticResets ? Math.min(from, diagnostics.count) : 0;
      return { resets: diagnosticResets, from: start, diagnostics: diagnostics.all(start).map(toDiagnosticPayload) };
    },
    stats: () => decoder.stats(),
    pendingTools(): PendingToolsState | null {
      if (legs.at(-1)?.decoder) return null;
      // A continuation that never ran (refused, 4xx, or only an error frame) leaves the run
      // paused where it was: the pending set is the one of the last leg with content.
      let last: LegState | undefined;
      for (let i = legs.length - 1; i >= 0 && !last; i--) {
        const leg = legs[i] as LegState;
        if (leg.kind !== 'tool-results' || leg.contentEnvelopes > 0) last = leg;
      }
      if (!last) return null;
      for (let i = awaitingBlocks.length - 1; i >= 0; i--) {
        const block = decoder.blocks()[awaitingBlocks[i] as number];
        if (!block || block.leg !== last.index) continue;
        if (block.status !== 'complete' || !block.pendingTools || block.pendingTools.length === 0) return null;
        const agentUuid = block.agent !== '' ? block.agent : (decoder.agents().find((a) => a.parent === null && a.uuid !== '')?.uuid ?? '');
        return { leg: last.index, block, agentUuid };
      }
      return null;
    },
    severityCounts: () => ({ ...counts }),
    diffInput(): DiffInput {
      const all: Envelope[] = [];
      for (let seq = 0; seq < envelopes.count; seq++) all.push(envelopes.get(seq) as Envelope);
      return { blocks: decoder.blocks(), agents: decoder.agents(), envelopes: all, frames: legs.map((leg) => reframeLeg(leg.raw)) };
    },
    summary(extra: { awaitingTools?: boolean; answered?: boolean } = {}): SessionSummary {
      const answered = extra.answered === true;
      const endStatus = (awaitingTools: boolean): EndStatus => {
        const last = legs.at(-1);
        const outcome = sessionOutcome(data.state, data.failure, last);
        const blocks = blockEndFacts(decoder.blocks(), last?.index ?? 0);
        const lost = lostData.describe() ?? droppedBytesOf(last?.failure).lostData;
        return endStatusOf({ stream: last?.raw.bytes ? (last.stream ?? null) : null, ...blocks, awaitingTools: awaitingTools || answered, answered, ...(lost ? { lostData: lost } : {}), ...(outcome ? { outcome } : {}) });
      };
      const summary: SessionSummary = {
        id: init.id,
        title: data.title,
        source: init.source,
        state: data.state,
        createdAt: init.createdAt,
        legs: legs.length,
        envelopes: envelopes.count,
        bytes: legs.reduce((sum, leg) => sum + leg.raw.bytes, 0),
        format: legs.find((l) => l.format !== null)?.format ?? null,
        diagnostics: { ...counts },
        awaitingTools: extra.awaitingTools ?? false,
        inline: toInlinePayload(decoder.inline()),
      };
      const status = legs.at(-1)?.response?.status;
      if (status !== undefined) summary.httpStatus = status;
      if (data.recordingPath !== undefined) summary.recordingPath = data.recordingPath;
      if (data.failure) summary.failure = data.failure;
      if (data.state === 'complete' || data.state === 'stopped' || data.state === 'failed') summary.end = endStatus(summary.awaitingTools);
      if (init.generation) summary.generation = init.generation;
      const blocks = decoder.blocks().length;
      if (blocks > 0) summary.blocks = blocks;
      return summary;
    },
    detail(pending: SessionDetail['pendingTools']): SessionDetail {
      const first = legs[0]?.request;
      return {
        summary: data.summary({ awaitingTools: pending !== null && pending.answered !== 'sent', answered: pending?.answered === 'sent' }),
        request: first ? displayRequest(first) : null,
        legs: legs.map(legInfo),
        agents: decoder.agents().map(toAgentPayload),
        pendingTools: pending,
      };
    },
    get batchPending() {
      return (
        sentRows < envelopes.count ||
        dirtyRows.size > 0 ||
        dirtyAgents.size > 0 ||
        sentBlockRevision !== blockRevision ||
        sentDiagnostics !== diagnostics.count ||
        sentResets !== diagnosticResets
      );
    },
    takeBatch(maxRows: number, maxChanges = maxRows): SessionBatch | null {
      if (!data.batchPending) return null;
      const start = sentRows;
      const end = Math.min(envelopes.count, start + maxRows);
      const columns = rowColumns(start, end);
      // Full rows for what a table shows before it could fetch a page: the session's first
      // rows and the batch's newest (a table following the stream).
      const head = Math.min(end, FULL_HEAD_ROWS);
      const rows = start < head ? data.rows(start, head - start) : [];
      const tail = init.source.kind === 'file' ? end : Math.max(head, start, end - FULL_TAIL_ROWS);
      rows.push(...data.rows(tail, end - tail));
      sentRows = end;
      const changed = takeLowest(dirtyRows, maxChanges).map((seq) => row(seq) as TimelineRow);
      const agents = [...dirtyAgents].flatMap((uuid) => {
        const agent = agentsByUuid.get(uuid);
        return agent ? [toAgentPayload(agent)] : [];
      });
      dirtyAgents.clear();
      sentBlockRevision = blockRevision;
      sentDiagnostics = diagnostics.count;
      sentResets = diagnosticResets;
      return {
        sessionId: init.id,
        ...(init.generation ? { generation: init.generation } : {}),
        total: envelopes.count,
        start,
        columns,
        rows,
        changed,
        agents,
        blockRevision,
        diagnosticCount: diagnostics.count,
        ...(diagnosticResets ? { diagnosticResets } : {}),
      };
    },
  };

  return data;
}

/** The options as the contract carries them (a fresh copy: payloads are plain data). */
function toInlinePayload(options: InlineOptions): NonNullable<SessionSummary['inline']> {
  return { mode: options.mode, tools: options.tools.map((t) => ({ name: t.name, required: [...t.required] })) };
}

/**
 * A flat copy of `text` that keeps nothing else alive: a slice keeps the whole string it was
 * cut from (a preview would keep its block's full content), and a message built from parts
 * keeps every part.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

/** Removes and returns the `max` lowest numbers of `set`, in order. */
function takeLowest(set: Set<number>, max: number): number[] {
  const sorted = [...set].sort((a, b) => a - b);
  const taken = sorted.length > max ? sorted.slice(0, max) : sorted;
  if (taken === sorted) set.clear();
  else for (const n of taken) set.delete(n);
  return taken;
}

function lastReceive(leg: LegState): number {
  return leg.raw.receivedAt(leg.raw.count - 1) ?? leg.startedAt;
}

/** A leg's frames with their data, by framing its bytes again in one pass. */
function reframeLeg(raw: RawChunks): Frame[] {
  const frames: Frame[] = [];
  const framer = createSseFramer({ onFrame: (frame) => frames.push(frame), onDiagnostic: () => {} }, { maxDataLineBytes: Number.MAX_SAFE_INTEGER });
  for (let i = 0; i < raw.count; i++) {
    const chunk = raw.chunk(i);
    if (chunk) framer.push(chunk.bytes, chunk.receivedAt);
  }
  framer.end();
  return frames;
}

/** A blank line: framed before an event that does not start the stream, it dispatches nothing. */
const NOT_THE_START = new Uint8Array([0x0a]);

/**
 * One event as framing exactly its bytes again gives it: its type, data and data lines (the
 * frame index keeps none of them). Its id is not among them: an event without an id line
 * carries the one before it. Only the stream's first event may begin with a BOM that framing
 * skips: any other is framed after a blank line, so a BOM it begins with stays content.
 */
function reframe(bytes: Uint8Array, startsStream: boolean): Pick<Frame, 'event' | 'data' | 'dataLines' | 'maxDataLineBytes'> {
  let event: Pick<Frame, 'event' | 'data' | 'dataLines' | 'maxDataLineBytes'> = { event: '', data: '', dataLines: 0, maxDataLineBytes: 0 };
  const framer = createSseFramer({ onFrame: (frame) => (event = frame), onDiagnostic: () => {} });
  if (!startsStream) framer.push(NOT_THE_START);
  framer.push(bytes);
  framer.end();
  return event;
}

export { toBlockDetail, toEnvelopeDetail };
