import type { Diagnostic } from '../../src-shared/diagnostics/types';
import type { Envelope } from '../../src-shared/envelope/types';
import { KIND } from '../../src-shared/envelope/vocabulary';
import type { LegEnd } from '../../src-shared/pipeline/types';
import { createPreparedCursor } from '../../src-shared/pipeline/prepared';
import { createSessionDecoder } from '../../src-shared/pipeline/session-decoder';
import type { FormatChoice } from '../../src-shared/pipeline/types';
import { HELD_IDLE_AGENTS, isSettled } from '../../src-shared/reconstruct/retention';
import type { AgentInfo, Block } from '../../src-shared/reconstruct/types';
import type { Frame } from '../../src-shared/sse/types';
import { releaseClosedBlock } from '../services/recording/counting-session';
import { endOf, formatOf, legChunks, legsOf, openInput, type DecodedFile, type DecodeFileOptions } from './decode-file';
import type { CliIo } from './io';
import type { InspectReport } from './report';
import { createReportCollector } from './report-collector';
import { awaitsClient } from '../../src-shared/reconstruct/payloads';
import { awaitedBy, pauseFacts, type Awaited } from '../../src-shared/pipeline/end-status';

/** What a command reads of a file as it streams: each is called as the decoder goes. */
export interface StreamCallbacks {
  onFrame?: (frame: Frame, leg: number) => void;
  onEnvelope?: (envelope: Envelope) => void;
  /** A block opened or changed (the decoder's live object). */
  onBlock?: (block: Block) => void;
  /**
   * A block that no longer changes (closed, and a tool call linked to its result), called once,
   * just before its content is let go: a command takes what it prints of the block here.
   */
  onSettled?: (block: Block) => void;
  onAgent?: (agent: AgentInfo) => void;
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** How a streamed file ended: what the decoder still holds and what the file says of itself. */
export interface StreamedFile extends Pick<DecodedFile, 'kind' | 'lastLegOutcome' | 'lastLegAnswered'> {
  ends: LegEnd[];
  /**
   * The blocks the decoder still holds at the end, in id order: those that never settled (still
   * open, tool calls that got no result); none of them was passed to `onSettled`.
   */
  held: readonly Block[];
  /** Findings about the file itself (a torn recording, skipped items), known once it is read. */
  fileDiagnostics: readonly Diagnostic[];
  startedAt?: number;
}

/**
 * A reading that shares another's pass over a file instead of reading it again: its callbacks
 * are called alongside the other's, and `end` with how the file ended.
 */
export interface SharedReading {
  callbacks: Pick<StreamCallbacks, 'onEnvelope' | 'onAgent' | 'onDiagnostic'>;
  end(streamed: StreamedFile): void;
}

/**
 * Decodes FILE streamed, the path every command that reads a whole file shares: envelopes and
 * frames are passed to `callbacks`, not kept, and a settled block is let go of its content
 * once `onSettled` has seen it (`open` retention, as `record` decodes), so memory does not
 * grow with the file (docs/reliability.md, "Memory that does not grow with the stream").
 */
export async function streamFile(
  file: string,
  format: FormatChoice | undefined,
  io: CliIo,
  options: DecodeFileOptions,
  callbacks: StreamCallbacks,
): Promise<StreamedFile> {
  const { inline } = options;
  // A small file is read whole and decoded without a turn of the event loop: the progress
  // line's timer gets one before each file, or a run of many small files would never draw it.
  if (options.counts) await new Promise((resolve) => setImmediate(resolve));
  const source = await openInput(file, io, options.harEntry);
  const cursor = createPreparedCursor();
  let envelopes = 0;
  /**
   * Blocks that settled while the current envelope was decoded, let go at the next: until the
   * envelope that closed a block is through, the reconstructor and the inline stage may still
   * read its content (see releaseClosedBlock).
   */
  let settled = new Set<Block>();
  const release = (): void => {
    for (const block of settled) {
      callbacks.onSettled?.(block);
      releaseClosedBlock(block);
    }
    settled = new Set();
  };
  const latestText = latestTextBlocks((block) => {
    if (isSettled(block)) settled.add(block);
  });
  const decoder = createSessionDecoder(
    {
      onEnvelope(envelope) {
        release();
        envelopes++;
        callbacks.onEnvelope?.(envelope);
      },
      onBlock(block) {
        callbacks.onBlock?.(block);
        if (block.kind === KIND.text) latestText.newest(block);
        if (isSettled(block) && !latestText.holds(block)) settled.add(block);
      },
      ...(callbacks.onFrame ? { onFrame: callbacks.onFrame } : {}),
      ...(callbacks.onAgent ? { onAgent: callbacks.onAgent } : {}),
      ...(callbacks.onDiagnostic ? { onDiagnostic: callbacks.onDiagnostic } : {}),
    },
    {
      format: formatOf(format, source, io),
      statistics: false,
      retention: 'open',
      ...(options.pool ? { prepared: cursor } : {}),
      ...(io.dialects ? { dialects: io.dialects } : {}),
      ...(inline ? { inline } : {}),
    },
  );
  const ends: LegEnd[] = [];
  for (const input of legsOf(source, io)) {
    const leg = decoder.startLeg(input.hints ? { hints: input.hints } : {});
    for await (const chunk of legChunks(input.chunks, () => envelopes, options, cursor)) {
      leg.push(chunk.bytes, chunk.receivedAt);
      // What the chunk printed goes out before the next is read (CliIo.drained).
      await io.drained?.();
    }
    ends.push(leg.end());
  }
  decoder.finish();
  latestText.letGoAll();
  release();
  const startedAt = source?.legs[0]?.startedAt;
  return {
    ...endOf(source),
    ends,
    held: decoder.blocks(),
    fileDiagnostics: source?.diagnostics ?? [],
    ...(startedAt !== undefined ? { startedAt } : {}),
  };
}

/**
 * Each agent's latest text block: a citation attaches to it even after it closed (attachments.ts),
 * so it is let go (`letGo`, when settled) only once its agent opens another text block, or at
 * the end. At most HELD_IDLE_AGENTS agents' blocks are held, as the reconstructor holds at most
 * that many idle agents: the least recently active goes first.
 */
function latestTextBlocks(letGo: (block: Block) => void) {
  const latest = new Map<string, Block>();
  return {
    newest(block: Block): void {
      const previous = latest.get(block.agent);
      if (previous === block) return;
      latest.delete(block.agent);
      latest.set(block.agent, block);
      if (previous) letGo(previous);
      for (const [agent, oldest] of latest) {
        if (latest.size <= HELD_IDLE_AGENTS) break;
        latest.delete(agent);
        letGo(oldest);
      }
    },
    holds: (block: Block): boolean => latest.get(block.agent) === block,
    letGoAll(): void {
      for (const block of latest.values()) letGo(block);
      latest.clear();
    },
  };
}

/**
 * `inspect`'s report of FILE, streamed: what the report says is gathered as the file is decoded
 * (report-collector.ts), envelopes and frames counted, not kept, and a finished block let go
 * of its content once settled, so memory does not grow with the file: a multi-GB file is
 * reported like a small one. `also` reads the file in the same pass (a filter's first pass:
 * stream-subjects.ts), so a command that also filters does not read it again for that.
 */
export async function reportFile(
  file: string,
  format: FormatChoice | undefined,
  io: CliIo,
  options: DecodeFileOptions = {},
  also?: SharedReading,
): Promise<InspectReport> {
  const collector = createReportCollector();
  const abandoned = new Map<number, string>();
  const pausedLegs = new Map<number, Awaited>();
  const shared = also?.callbacks ?? {};
  const streamed = await streamFile(file, format, io, options, {
    onEnvelope(envelope) {
      collector.envelope(envelope);
      shared.onEnvelope?.(envelope);
    },
    onBlock(block) {
      if (block.status === 'open') return;
      collector.block(block);
      if (block.status === 'abandoned') abandoned.set(block.id, block.kind);
      else if (awaitsClient(block)) pausedLegs.set(block.leg, awaitedBy(block));
    },
    onAgent(agent) {
      collector.agent(agent);
      shared.onAgent?.(agent);
    },
    onDiagnostic(diagnostic) {
      collector.diagnostic(diagnostic);
      shared.onDiagnostic?.(diagnostic);
    },
  });
  also?.end(streamed);
  for (const d of streamed.fileDiagnostics) collector.diagnostic(d);
  const open = streamed.held.filter((block) => block.status === 'open');
  for (const block of open) collector.block(block, true);
  const { ends } = streamed;
  return collector.report({
    ...streamed,
    formats: ends.map((end) => end.format),
    detections: ends.map((end) => end.detection),
    frames: ends.reduce((sum, end) => sum + end.stream.frames, 0),
    blockFacts: {
      openBlocks: open.map(({ id, kind }) => ({ id, kind })),
      abandonedBlocks: [...abandoned].sort(([a], [b]) => a - b).map(([id, kind]) => ({ id, kind })),
      ...pauseFacts(pausedLegs, ends.length - 1),
    },
  });
}
