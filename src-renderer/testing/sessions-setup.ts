import type {
  BlockSummary,
  DiagnosticPayload,
  LiveStatus,
  SessionBatch,
  SessionDetail,
  SessionSummary,
} from '../../src-shared/contract';
import { createManualScheduler, type ManualScheduler } from '../model/scheduler';
import { LIVE_INTERVAL_MS, SessionsModel } from '../model/sessions';
import { createFakeService, rows, rowsBatch, summary } from './fake-service';

/** What the sessions model's tests share: summaries of blocks and findings, batches, and a model over a fake main. */

export function block(id: number, change: Partial<BlockSummary> = {}): BlockSummary {
  return {
    id,
    agent: 'agent-a',
    kind: 'text',
    status: 'open',
    length: 1,
    preview: 'x',
    citations: 0,
    images: 0,
    firstEnvelope: id,
    lastEnvelope: id,
    envelopeCount: 1,
    leg: 0,
    byteStart: 0,
    byteEnd: 1,
    ...change,
  };
}

export function diagnostic(seq: number): DiagnosticPayload {
  return { seq, rule: 'sse.test', severity: 'warning', message: `finding ${seq}`, at: { envelope: seq } };
}

/** A streaming session's live status. */
export function liveStatus(sessionId: string, change: Partial<LiveStatus> = {}): LiveStatus {
  return {
    sessionId,
    state: 'streaming',
    leg: 0,
    bytes: 10,
    envelopes: 2,
    elapsedMs: 100,
    envelopesPerSecond: 20,
    bytesPerSecond: 100,
    idleMs: 0,
    ...change,
  };
}

export function batch(start: number, count: number, change: Partial<SessionBatch> = {}): SessionBatch {
  return { ...rowsBatch(rows(start, start + count), [], start + count), ...change };
}

export function detail(s: SessionSummary): SessionDetail {
  return {
    summary: s,
    request: null,
    legs: [],
    agents: [{ uuid: 'agent-a', parent: null, firstEnvelope: 0 }],
    pendingTools: null,
  };
}

/** The next frame that applies a live session's batches: they come at most every LIVE_INTERVAL_MS. */
export function nextUpdate(scheduler: ManualScheduler): void {
  scheduler.advance(LIVE_INTERVAL_MS);
  scheduler.frame();
}

/**
 * A sessions model over main's side for the tests: blocks with the revision each last changed
 * at, findings with the times they were replaced; getBlockChanges and getDiagnosticsSince
 * answer like main.
 */
export function setup(
  main: {
    blocks?: { block: BlockSummary; revision: number }[];
    diagnostics?: DiagnosticPayload[];
    resets?: number;
  } = {},
) {
  const scheduler = createManualScheduler();
  const errors: string[] = [];
  let current = summary('s1');
  const fake = createFakeService({
    getSession: () => Promise.resolve(detail(current)),
    getBlockChanges: ({ since }: { since: number }) => {
      const blocks = main.blocks ?? [];
      const revision = Math.max(0, ...blocks.map((b) => b.revision));
      return Promise.resolve({ revision, blocks: blocks.filter((b) => b.revision > since).map((b) => b.block) });
    },
    getDiagnosticsSince: ({ from, resets }: { from: number; resets: number }) => {
      const all = main.diagnostics ?? [];
      const start = resets === (main.resets ?? 0) ? from : 0;
      return Promise.resolve({ resets: main.resets ?? 0, from: start, diagnostics: all.slice(start) });
    },
  });
  const model = new SessionsModel({
    service: fake.service,
    scheduler,
    reportError: (c, e) => errors.push(`${c}: ${(e as Error).message}`),
  });
  const callsOf = (method: string) => fake.calls.filter((c) => c.method === method);
  return { model, scheduler, fake, errors, main, callsOf, setSummary: (s: SessionSummary) => (current = s) };
}
