import type { BreakpointEnvelope } from '../../../../src-shared/replay/breakpoints';
import type {
  BlockChanges,
  BlockSummary,
  DiagnosticsPage,
  Failure,
  FrameDetail,
  LegEndInfo,
  RawBytes,
  SessionBatch,
  SessionDetail,
  SessionSource,
  SessionState,
  SessionSummary,
  TimelineRow,
} from '../../../../src-shared/contract/payloads';
import type { Diagnostic, Severity } from '../../../../src-shared/diagnostics/types';
import type { Envelope } from '../../../../src-shared/envelope/types';
import type { SessionDecoder } from '../../../../src-shared/pipeline/session-decoder';
import type { FormatChoice } from '../../../../src-shared/pipeline/types';
import { DEFAULT_INLINE_OPTIONS, type InlineOptions } from '../../../../src-shared/inline/types';
import type { AgentInfo, Block } from '../../../../src-shared/reconstruct/types';
import type { RecordedRequest, RecordedResponse } from '../../../../src-shared/recording/types';
import type { DiffInput } from '../../../../src-shared/diff/types';
import type { Expr } from '../../../../src-shared/filter';
import { EnvelopeTable } from './envelope-table';
import { createRawChunks, rawBytesOf } from './raw-chunks';
import { sessionLegs } from './session-legs';
import type { LegKind, LegState } from './leg-state';
import { BlockContents } from './block-contents';
import { BlockEnvelopes } from './block-envelopes';
import { SpoolFile, type OpenSpool } from './spool-file';
import { RecordingFile } from './recording-file';
import type { FileSpan } from '../../importers/types';
import { DiagnosticStore } from './diagnostic-store';
import { FindingBadges } from './finding-badges';
import { BatchTracker } from './batch-tracker';
import { chunkChanges, decoderInto } from './decoder-wiring';
import { BlockIndex, pendingToolsOf } from './block-index';
import { filterEnvelopes } from './session-filter';
import { SessionRows } from './session-rows';
import { SessionStatistics } from './session-statistics';
import { frameDetail, framingOf, reframeLeg } from './reframe';
import { sessionDetail, sessionSummary, toAgentPayload, toDiagnosticPayload } from './session-summary';

/**
 * Everything one session holds, fed by the shared decoder: its legs (each with the raw bytes
 * kept once, on disk, behind an index of the received chunks), a compact frame index, the
 * envelopes (their deltas on disk too), the blocks and agents (the reconstructor's live
 * objects; a finished block's content is read back from disk) and diagnostics; chunk statistics
 * are counted from them when asked.
 * Contents are handed out on demand, by id; what changed since the last batch is tracked for
 * the batched row updates.
 *
 * A chunk flows one way: `push` keeps its bytes and hands them to the decoder; the decoder's
 * callbacks are the only writers of the indexes, the findings (finding-badges) and the batch
 * marks (batch-tracker); each change is reported to `onChange`, given once at creation (what
 * decoding a chunk changed, once for the chunk); a batch (`takeBatch`, drained by the
 * service's batcher) only reads what they wrote.
 */

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
  /** Called whenever something a batch would carry changed (the registry schedules a batch). */
  onChange?: () => void;
}

export interface PendingToolsState {
  leg: number;
  block: Block;
  agentUuid: string;
}

export interface SessionStore {
  readonly id: string;
  /** The user may rename a session. */
  title: string;
  /** Set again only when what was opened becomes known later (a HAR file's entries, once chosen). */
  source: SessionSource;
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
  /** An envelope's type and agent, and whether it opened its block, without building the whole envelope. */
  envelopeFacts(seq: number): BreakpointEnvelope | undefined;
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
  /** Chunk statistics (ChunkStatistics), counted when asked from what the store keeps (session-statistics.ts). */
  stats(): Promise<unknown>;
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
  /** The session was closed: its spool files are deleted, and nothing may be read from it any more. */
  dispose(): void;
  /** Bytes the envelope and frame indexes take in memory (what the benchmarks report). */
  indexBytes(): { envelopes: number; frames: number };
}

export function createSessionStore(init: SessionInit): SessionStore {
  const legs: LegState[] = [];
  /** The legs' raw bytes (one leg after the other, unless they are read from the recording), and the envelopes' deltas. */
  const rawSpool = new SpoolFile('raw bytes', init.openSpool);
  const recording = init.recording !== undefined ? new RecordingFile(init.recording) : null;
  const textSpool = new SpoolFile('envelope text', init.openSpool);
  const envelopes = new EnvelopeTable((leg) => legs[leg]?.frames, textSpool);
  const agentsByUuid = new Map<string, AgentInfo>();
  const batch = new BatchTracker();
  const blockIndex = new BlockIndex(envelopes, new BlockContents(envelopes), new BlockEnvelopes(envelopes), (seq) =>
    batch.touchRow(seq),
  );
  const firstEnvelope = (leg: number, frame: number): number => legs[leg]?.frames.firstEnvelope(frame) ?? -1;
  const findings = new FindingBadges(
    new DiagnosticStore(new SpoolFile('findings', init.openSpool)),
    firstEnvelope,
    (seq) => batch.touchRow(seq),
  );
  let finished = false;

  const notify = init.onChange ?? ((): void => {});

  const addDiagnostic = (diagnostic: Diagnostic): void => {
    findings.add(diagnostic);
    notify();
  };

  const changes = chunkChanges(notify);
  const decoder: SessionDecoder = decoderInto(
    { legs, envelopes, blocks: blockIndex, agents: agentsByUuid, findings, batch },
    changes.changed,
    {
      ...(init.format ? { format: init.format } : {}),
      inline: init.inline ?? DEFAULT_INLINE_OPTIONS,
      // A closed block's text goes to disk (BlockContents.release): no flat copy of it first.
      releasesClosedText: true,
      // Counted when a view asks (SessionStatistics), from what the store keeps.
      statistics: false,
    },
  );

  const legOps = sessionLegs({
    sessionId: init.id,
    legs,
    decoder,
    envelopes,
    raw: (kind, leg) => createRawChunks(recording && kind === 'file' ? { recording, leg } : rawSpool),
    finished: () => finished,
    notify,
    decoding: changes.decoding,
  });
  const legAt = legOps.legAt;

  const rows = new SessionRows(envelopes, findings);
  const statistics = new SessionStatistics(legs, envelopes);
  const row = (seq: number) => rows.row(seq);

  const batchMarks = () => ({
    rows: envelopes.count,
    blockRevision: blockIndex.revision,
    diagnostics: findings.count,
    diagnosticResets: findings.resets,
  });

  const data: SessionStore = {
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
    dispose() {
      rawSpool.close();
      textSpool.close();
      recording?.close();
    },
    indexBytes: () => ({
      envelopes: envelopes.indexBytes,
      frames: legs.reduce((sum, leg) => sum + leg.frames.indexBytes, 0),
    }),
    ...legOps,
    finish() {
      if (finished) return;
      for (const leg of legs)
        if (leg.decoder) data.endLeg(leg.index, { reason: 'stopped', message: 'The session was closed' });
      finished = true;
      decoder.finish();
      envelopes.trim();
      notify();
    },
    addDiagnostics(list: readonly Diagnostic[]) {
      for (const d of list) addDiagnostic(d);
    },
    inline: () => decoder.inline(),
    setInline(options: InlineOptions) {
      findings.replace(findings.all().filter((d) => !d.rule.startsWith('inline.')));
      decoder.setInline(options);
      notify();
    },
    inlineHeld: (block: Block) => decoder.inlineHeld(block),
    envelope: (seq: number) => envelopes.get(seq),
    envelopeFacts: (seq: number) => {
      if (seq < 0 || seq >= envelopes.count) return undefined;
      const block = envelopes.block(seq);
      const startsBlock = block >= 0 && decoder.blocks()[block]?.envelopes[0] === seq;
      return { seq, type: envelopes.type(seq), agent: envelopes.agent(seq), startsBlock };
    },
    envelopeTypes() {
      const types = new Set<string>();
      for (let seq = 0; seq < envelopes.count; seq++) types.add(envelopes.type(seq));
      return [...types];
    },
    findingEnvelope({ at }: Diagnostic) {
      if (at.envelope !== undefined) return at.envelope;
      const first = at.frame !== undefined ? firstEnvelope(at.leg ?? 0, at.frame) : -1;
      return first >= 0 ? first : undefined;
    },
    row,
    rows: (start: number, count: number) => rows.rows(start, count),
    filter(filter: Expr, max: number) {
      return filterEnvelopes(
        {
          envelopes,
          blocks: () => decoder.blocks(),
          agents: () => decoder.agents(),
          diagnostics: () => findings.all(),
          firstEnvelope: (leg, frame) => legs[leg]?.frames.firstEnvelope(frame),
          startedAt: legs[0]?.startedAt ?? 0,
        },
        filter,
        max,
      );
    },
    frame(leg: number, seq: number): FrameDetail | undefined {
      const state = legs[leg];
      return state ? frameDetail(leg, seq, state) : undefined;
    },
    rawBytes: (leg: number, start: number, end: number, cap: number) =>
      rawBytesOf(leg, legAt(leg).raw, start, end, cap),
    blocks: (agent?: string) => {
      const all = decoder.blocks();
      return agent === undefined ? all : all.filter((b) => b.agent === agent);
    },
    block: (id: number) => decoder.blocks()[id],
    blockSummary: (block: Block) => blockIndex.summary(block),
    blockChanges: (since: number) => blockIndex.changes(since, decoder.blocks()),
    agents: () => decoder.agents(),
    diagnostics: () => findings.all(),
    diagnosticsSince(from: number, resets: number): DiagnosticsPage {
      const start = resets === findings.resets ? Math.min(from, findings.count) : 0;
      return { resets: findings.resets, from: start, diagnostics: findings.all(start).map(toDiagnosticPayload) };
    },
    stats: () => statistics.snapshot(),
    pendingTools: () => pendingToolsOf(legs, blockIndex.awaiting, decoder.blocks(), decoder.agents()),
    severityCounts: () => findings.severityCounts(),
    diffInput(): DiffInput {
      const all: Envelope[] = [];
      for (let seq = 0; seq < envelopes.count; seq++) all.push(envelopes.get(seq) as Envelope);
      return {
        blocks: decoder.blocks(),
        agents: decoder.agents(),
        envelopes: all,
        frames: legs.map((leg) => reframeLeg(leg.raw, framingOf(leg))),
      };
    },
    summary(extra: { awaitingTools?: boolean; answered?: boolean } = {}): SessionSummary {
      return sessionSummary(
        {
          id: init.id,
          title: data.title,
          source: data.source,
          state: data.state,
          createdAt: init.createdAt,
          generation: data.generation,
          ...(data.failure ? { failure: data.failure } : {}),
          ...(data.recordingPath !== undefined ? { recordingPath: data.recordingPath } : {}),
          legs,
          envelopeCount: envelopes.count,
          blocks: () => decoder.blocks(),
          inline: () => decoder.inline(),
          severityCounts: () => findings.severityCounts(),
          lostData: () => findings.lostData(),
        },
        extra.awaitingTools ?? false,
        extra.answered === true,
      );
    },
    detail(pending: SessionDetail['pendingTools']): SessionDetail {
      const summary = data.summary({
        awaitingTools: pending !== null && pending.answered !== 'sent',
        answered: pending?.answered === 'sent',
      });
      return sessionDetail(summary, legs, decoder.agents(), pending);
    },
    get batchPending() {
      return batch.pending(batchMarks());
    },
    takeBatch(maxRows: number, maxChanges = maxRows): SessionBatch | null {
      if (!data.batchPending) return null;
      const marks = batchMarks();
      const { start, end, changed, agents } = batch.take(marks, maxRows, maxChanges);
      return {
        sessionId: init.id,
        ...(init.generation ? { generation: init.generation } : {}),
        total: envelopes.count,
        start,
        columns: rows.columns(start, end),
        rows: rows.batchRows(start, end, init.source.kind !== 'file'),
        changed: changed.map((seq) => row(seq) as TimelineRow),
        agents: agents.flatMap((uuid) => {
          const agent = agentsByUuid.get(uuid);
          return agent ? [toAgentPayload(agent)] : [];
        }),
        blockRevision: blockIndex.revision,
        diagnosticCount: findings.count,
        ...(findings.resets ? { diagnosticResets: findings.resets } : {}),
      };
    },
  };

  return data;
}
