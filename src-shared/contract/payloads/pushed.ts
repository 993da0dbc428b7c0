import { columnsProblem, type RowColumns as RowColumnsData } from '../row-columns';
import type { Infer } from '../schema';
import { Count, SessionId } from './common';
import { AgentInfo, Failure, SessionState } from './sessions';
import { BlockSummary, Diagnostic, TimelineRow } from './contents';
import { ExportKind } from './files';
import * as s from '../schema';

/** What main pushes: batches of rows, block and finding changes, live status, errors, host commands. */

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
export type RowColumns = Infer<typeof RowColumns>;

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
export type SessionBatch = Infer<typeof SessionBatch>;

/** The blocks that opened or changed after revision `since` of a BlockChangesRequest, and the revision they bring the client to. */
export const BlockChanges = s.object({
  revision: Count(),
  blocks: s.array(BlockSummary),
});
export type BlockChanges = Infer<typeof BlockChanges>;

export const BlockChangesRequest = s.object({ sessionId: SessionId, since: Count() });
export type BlockChangesRequest = Infer<typeof BlockChangesRequest>;

/**
 * Findings from `from` on. When the list was replaced since the client's `resets` (the inline
 * mode changed), the answer is the whole new list: `from` 0 and the current `resets`.
 */
export const DiagnosticsSinceRequest = s.object({ sessionId: SessionId, from: Count(), resets: Count() });
export type DiagnosticsSinceRequest = Infer<typeof DiagnosticsSinceRequest>;
export const DiagnosticsPage = s.object({
  resets: Count(),
  from: Count(),
  diagnostics: s.array(Diagnostic),
});
export type DiagnosticsPage = Infer<typeof DiagnosticsPage>;

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
export type LiveStatus = Infer<typeof LiveStatus>;

/**
 * How far a long task on a session has got (opening or uploading a file, exporting it), pushed
 * on a tick while it runs and once when it ends. Bytes: `received` is what the session holds so
 * far of `total` (an upload still arriving: less than the file), `decoded` what the decoder has
 * read of it; an export's `received` and `decoded` are both the bytes written. `total` 0: unknown.
 */
export const TaskProgress = s.object({
  sessionId: SessionId,
  task: s.literal('open', 'upload', 'export'),
  total: Count(),
  received: Count(),
  decoded: Count(),
  envelopes: Count(),
  /** How many envelopes the task takes in all, where it knows (an export: the session's). */
  envelopesTotal: s.optional(Count()),
  /** Over the last second. */
  envelopesPerSecond: s.number({ min: 0 }),
  bytesPerSecond: s.number({ min: 0 }),
  elapsedMs: s.number({ min: 0 }),
  /** The task ended (all read, cut or failed: the session's state says which). */
  done: s.boolean(),
});
export type TaskProgress = Infer<typeof TaskProgress>;

export const ErrorEvent = s.object({
  sessionId: s.optional(SessionId),
  kind: Failure.shape.kind,
  message: s.string(),
  at: s.number(),
});
export type ErrorEvent = Infer<typeof ErrorEvent>;

/** Things the host asks the renderer to do (menu items, a file dropped on the window). */
export const HostCommand = s.variant('kind', {
  'select-session': s.object({ sessionId: SessionId }),
  'save-recording': s.object({}),
  export: s.object({ exportKind: ExportKind }),
  replay: s.object({}),
  connect: s.object({}),
});
export type HostCommand = Infer<typeof HostCommand>;
