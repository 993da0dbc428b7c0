import type { Diagnostic } from '../../src-shared/diagnostics/types';
import type { Envelope } from '../../src-shared/envelope/types';
import { KIND } from '../../src-shared/envelope/vocabulary';
import type { LegEnd } from '../../src-shared/pipeline/leg-decoder';
import { createPreparedCursor } from '../../src-shared/pipeline/prepared';
import { createSessionDecoder } from '../../src-shared/pipeline/session-decoder';
import type { FormatChoice } from '../../src-shared/pipeline/types';
import { isSettled } from '../../src-shared/reconstruct/retention';
import type { AgentInfo, Block } from '../../src-shared/reconstruct/types';
import { releaseClosedBlock } from '../services/recording/counting-session';
import { endOf, legChunks, legsOf, openInput, type DecodedFile, type DecodeFileOptions } from './decode-file';
import type { CliIo } from './io';
import type { InspectReport } from './report';
import { createReportCollector } from './report-collector';

/** What a command reads of a file as it streams: each is called as the decoder goes. */
export interface StreamCallbacks {
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
  /** The blocks that never settled, in id order: still open, or tool calls that got no result. */
  unsettled: readonly Block[];
  /** Findings about the file itself (a torn recording, skipped items), known once it is read. */
  fileDiagnostics: readonly Diagnostic[];
  startedAt?: number;
}

/**
 * Decodes FILE streamed, the path every command that reads a whole file shares: envelopes and
 * frames are passed to `callbacks`, not kept, and a settled block is let go of its content
 * once `onSettled` has seen it (`open` retention, as `record` decodes), so memory does not
 * grow with the file (docs/reliability.md, "Memory that does not grow with the stream").
 */
export async function streamFile(
  file: string,
  format: FormatChoice,
  io: CliIo,
  options: DecodeFileOptions,
  callbacks: StreamCallbacks,
): Promise<StreamedFile> {
  const { inline } = options;
  const source = await openInput(file, io);
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
  const decoder = createSessionDecoder(
    {
      onEnvelope(envelope) {
        release();
        envelopes++;
        callbacks.onEnvelope?.(envelope);
      },
      onBlock(block) {
        callbacks.onBlock?.(block);
        if (isSettled(block)) settled.add(block);
      },
      ...(callbacks.onAgent ? { onAgent: callbacks.onAgent } : {}),
      ...(callbacks.onDiagnostic ? { onDiagnostic: callbacks.onDiagnostic } : {}),
    },
    {
      format,
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
    for await (const chunk of legChunks(input.chunks, () => envelopes, options, cursor))
      leg.push(chunk.bytes, chunk.receivedAt);
    ends.push(leg.end());
  }
  decoder.finish();
  release();
  const startedAt = source?.legs[0]?.startedAt;
  return {
    ...endOf(source),
    ends,
    unsettled: decoder.blocks().filter((block) => !isSettled(block)),
    fileDiagnostics: source?.diagnostics ?? [],
    ...(startedAt !== undefined ? { startedAt } : {}),
  };
}

/**
 * `inspect`'s report of FILE, streamed: what the report says is gathered as the file is decoded
 * (report-collector.ts), envelopes and frames counted, not kept, and a finished block let go
 * of its content once settled, so memory does not grow with the file: a multi-GB file is
 * reported like a small one.
 */
export async function reportFile(
  file: string,
  format: FormatChoice,
  io: CliIo,
  options: DecodeFileOptions = {},
): Promise<InspectReport> {
  const collector = createReportCollector();
  const abandoned = new Map<number, string>();
  const pausedLegs = new Set<number>();
  const streamed = await streamFile(file, format, io, options, {
    onEnvelope: (envelope) => collector.envelope(envelope),
    onBlock(block) {
      if (block.status === 'open') return;
      collector.block(block);
      if (block.status === 'abandoned') abandoned.set(block.id, block.kind);
      else if (block.kind === KIND.awaiting_frontend_tools && (block.pendingTools?.length ?? 0) > 0)
        pausedLegs.add(block.leg);
    },
    onAgent: (agent) => collector.agent(agent),
    onDiagnostic: (diagnostic) => collector.diagnostic(diagnostic),
  });
  for (const d of streamed.fileDiagnostics) collector.diagnostic(d);
  const open = streamed.unsettled.filter((block) => block.status === 'open');
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
      awaitingTools: pausedLegs.has(ends.length - 1),
    },
  });
}
