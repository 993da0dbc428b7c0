import type { ExchangeHints } from '../../src-shared/dialects/evidence';
import { KIND } from '../../src-shared/envelope/vocabulary';
import type { LegEnd } from '../../src-shared/pipeline/leg-decoder';
import {
  createCollectingSession,
  createSessionDecoder,
  type ChunkInput,
} from '../../src-shared/pipeline/session-decoder';
import type { Block } from '../../src-shared/reconstruct/types';
import type { InlineOptions } from '../../src-shared/inline/types';
import type { DecodeResult, FormatChoice } from '../../src-shared/pipeline/types';
import type { LegOutcome } from '../../src-shared/recording/types';
import { resolve } from 'node:path';
import { bytesSourceFs, openSource, type SourceFs } from '../services/importers';
import { readSmallRegularFileSync } from '../services/importers/regular-file';
import type { ImportedSource } from '../services/importers/types';
import { releaseClosedBlock } from '../services/recording/counting-session';
import type { CliIo } from './io';
import type { InspectReport } from './report';
import { createReportCollector } from './report-collector';
import { readChunks } from './input';
import type { ProgressCounts } from './progress';
import { createPreparedCursor, type PreparedCursor } from '../../src-shared/pipeline/prepared';
import { DEFAULT_CHUNK_BUDGET } from '../../src-shared/envelope/budget';
import { readAhead } from '../services/parallel/read-ahead';
import type { SpanPool } from '../services/parallel/span-pool';

export interface DecodedFile extends DecodeResult {
  /** What the file was recognised as ('stdin' for standard input, read as an SSE capture). */
  kind: string;
  /** How the last leg ended, for a recording (undefined when it stops inside the leg, null for other files). */
  lastLegOutcome: LegOutcome | undefined | null;
  /** A recording holds tool results sent for its last leg's pause (and no continuation after them). */
  lastLegAnswered: boolean;
  /** When the first request was sent, on the clock of the receive times (recordings). */
  startedAt?: number;
}

async function* stdinChunks(io: CliIo): AsyncGenerator<ChunkInput> {
  for await (const bytes of readChunks('-', io)) yield { bytes };
}

/** `chunks` as they are decoded, counted into `counts`: their bytes, and the envelopes `envelopes` says were decoded so far. */
async function* counted(
  chunks: AsyncIterable<ChunkInput> | Iterable<ChunkInput>,
  counts: ProgressCounts,
  envelopes: () => number,
): AsyncGenerator<ChunkInput> {
  let before = envelopes();
  for await (const chunk of chunks) {
    yield chunk;
    counts.bytes += chunk.bytes.byteLength;
    const now = envelopes();
    counts.envelopes += now - before;
    before = now;
  }
}

export interface DecodeFileOptions {
  inline?: InlineOptions;
  /**
   * A command's progress, only when it shows one (counting makes every chunk wait a turn of
   * the event loop): grows by the stream bytes and envelopes decoded.
   */
  counts?: ProgressCounts;
  /** Threads that read each leg's spans ahead of the ordered decode (a large file: workers-option.ts). */
  pool?: SpanPool;
}

/** A leg's chunks as the session decodes them: read ahead on `pool`'s threads into `cursor`, counted for progress. */
function legChunks(
  chunks: AsyncIterable<ChunkInput> | Iterable<ChunkInput>,
  envelopes: () => number,
  { counts, pool }: DecodeFileOptions,
  cursor: PreparedCursor,
): AsyncIterable<ChunkInput> | Iterable<ChunkInput> {
  const ahead = pool ? readAhead(chunks, pool, cursor, { budget: DEFAULT_CHUNK_BUDGET }) : chunks;
  return counts ? counted(ahead, counts, envelopes) : ahead;
}

/** Files up to this size are read whole (larger ones are streamed). */
const READ_WHOLE_BYTES = 4 * 1024 * 1024;

/**
 * A small file's bytes, read in one synchronous call: the importers open a file twice (to
 * recognise it, then to stream it), and for the many small files of one run those opens and
 * their promises cost more than the reads. Undefined for a large file, or one that cannot be
 * read or is not a regular file: the importers then stream it, or report the error as they
 * always do.
 */
function wholeSmallFile(path: string): SourceFs | undefined {
  const bytes = readSmallRegularFileSync(path, READ_WHOLE_BYTES);
  return bytes ? bytesSourceFs(bytes) : undefined;
}

/**
 * Opens FILE with the importers (recordings, SSE captures, NDJSON/JSON of envelopes or
 * Anthropic events, HAR) and decodes every leg with the shared decoder (a large file streamed).
 */
export async function decodeFile(
  file: string,
  format: FormatChoice,
  io: CliIo,
  options: DecodeFileOptions = {},
): Promise<DecodedFile> {
  const { inline } = options;
  const source = await openInput(file, io);
  // No command prints chunk statistics: they are not computed.
  const cursor = createPreparedCursor();
  const session = createCollectingSession({
    format,
    statistics: false,
    ...(options.pool ? { prepared: cursor } : {}),
    ...(io.dialects ? { dialects: io.dialects } : {}),
    ...(inline ? { inline } : {}),
  });
  for (const leg of legsOf(source, io))
    await session.decodeLegAsync(
      legChunks(leg.chunks, () => session.envelopeCount(), options, cursor),
      leg.hints,
    );
  const result = session.finish();
  const startedAt = source?.legs[0]?.startedAt;
  return {
    ...result,
    ...endOf(source),
    // Findings about the file itself (a torn recording, skipped items) come first.
    diagnostics: [...(source?.diagnostics ?? []), ...result.diagnostics],
    ...(startedAt !== undefined ? { startedAt } : {}),
  };
}

/**
 * `inspect`'s report of FILE, streamed: what the report says is gathered as the file is decoded
 * (report-collector.ts), envelopes and frames counted, not kept, and a finished block let go
 * of its content once its report line is taken (`open` retention, as `record` decodes), so
 * memory does not grow with the file: a multi-GB file is reported like a small one.
 */
export async function reportFile(
  file: string,
  format: FormatChoice,
  io: CliIo,
  options: DecodeFileOptions = {},
): Promise<InspectReport> {
  const { inline } = options;
  const source = await openInput(file, io);
  const cursor = createPreparedCursor();
  let envelopes = 0;
  const collector = createReportCollector();
  /** Blocks that finished while the current envelope was decoded: let go at the next (see releaseClosedBlock). */
  let finished: Block[] = [];
  const abandoned = new Map<number, string>();
  const pausedLegs = new Set<number>();
  const decoder = createSessionDecoder(
    {
      onEnvelope(envelope) {
        for (const block of finished) releaseClosedBlock(block);
        finished = [];
        envelopes++;
        collector.envelope(envelope);
      },
      onBlock(block) {
        if (block.status === 'open') return;
        collector.block(block);
        finished.push(block);
        if (block.status === 'abandoned') abandoned.set(block.id, block.kind);
        else if (block.kind === KIND.awaiting_frontend_tools && (block.pendingTools?.length ?? 0) > 0)
          pausedLegs.add(block.leg);
      },
      onAgent: (agent) => collector.agent(agent),
      onDiagnostic: (diagnostic) => collector.diagnostic(diagnostic),
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
  for (const d of source?.diagnostics ?? []) collector.diagnostic(d);
  const open = decoder.blocks().filter((block) => block.status === 'open');
  for (const block of open) collector.block(block, true);
  return collector.report({
    ...endOf(source),
    formats: ends.map((end) => end.format),
    detections: ends.map((end) => end.detection),
    ends,
    frames: ends.reduce((sum, end) => sum + end.stream.frames, 0),
    blockFacts: {
      openBlocks: open.map(({ id, kind }) => ({ id, kind })),
      abandonedBlocks: [...abandoned].sort(([a], [b]) => a - b).map(([id, kind]) => ({ id, kind })),
      awaitingTools: pausedLegs.has(ends.length - 1),
    },
  });
}

/** The file (null for standard input) opened by the importers, a small one read whole first. */
async function openInput(file: string, io: CliIo): Promise<ImportedSource | null> {
  if (file === '-') return null;
  const path = resolve(io.cwd, file);
  const fs = wholeSmallFile(path);
  return openSource(path, fs ? { fs } : {});
}

/** Each leg's chunks, with what its exchange says where the bytes say nothing (a recording's or HAR entry's URL and response headers). */
function legsOf(
  source: ImportedSource | null,
  io: CliIo,
): { chunks: AsyncIterable<ChunkInput> | Iterable<ChunkInput>; hints?: ExchangeHints }[] {
  if (!source) return [{ chunks: stdinChunks(io) }];
  return source.legs.map((leg) => ({
    chunks: leg.chunks,
    hints: {
      ...(leg.request ? { url: leg.request.url } : {}),
      ...(leg.response ? { headers: leg.response.headers } : {}),
    },
  }));
}

/** What the file says of how its session ended: its kind, how a recording's last leg ended, tool results sent for it. */
function endOf(source: ImportedSource | null): Pick<DecodedFile, 'kind' | 'lastLegOutcome' | 'lastLegAnswered'> {
  const lastLeg = source?.legs.at(-1)?.index;
  return {
    kind: source?.kind ?? 'stdin',
    lastLegOutcome: source?.kind === 'recording' ? source.legs.at(-1)?.outcome : null,
    lastLegAnswered: source?.actions.some((a) => a.kind === 'tool-results' && a.leg === lastLeg) ?? false,
  };
}
