import type { ExchangeHints } from '../../src-shared/dialects/evidence';
import { createCollectingSession, type ChunkInput } from '../../src-shared/pipeline/session-decoder';
import type { InlineOptions } from '../../src-shared/inline/types';
import type { DecodeResult, FormatChoice } from '../../src-shared/pipeline/types';
import type { LegOutcome } from '../../src-shared/recording/types';
import { resolve } from 'node:path';
import { bytesSourceFs, openSource, type SourceFs } from '../services/importers';
import { readSmallRegularFileSync } from '../services/importers/regular-file';
import { rejectedResponseFailure } from '../services/connection/failures';
import { chosenFormat, legIsStream, type ImportedSource } from '../services/importers/types';
import { DIALECT_REGISTRY, type DialectId } from '../../src-shared/dialects/registry';
import { UsageError, type CliIo } from './io';
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
  let read = 0;
  for await (const bytes of readChunks('-', io)) {
    read += bytes.byteLength;
    yield { bytes };
  }
  // As an empty file is refused, not reported as a stream that ended after no event: a pipe
  // from a command that failed (`curl … | stream-inspector inspect -`) must not pass a gate.
  if (read === 0) throw new Error('- (stdin): standard input is empty');
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
  /** A HAR file's entries to open (`--har-entry`); without it, its only stream. */
  harEntry?: readonly number[];
}

/** A leg's chunks as the session decodes them: read ahead on `pool`'s threads into `cursor`, counted for progress. */
export function legChunks(
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
  format: FormatChoice | undefined,
  io: CliIo,
  options: DecodeFileOptions = {},
): Promise<DecodedFile> {
  const { inline } = options;
  const source = await openInput(file, io, options.harEntry);
  // No command prints chunk statistics: they are not computed.
  const cursor = createPreparedCursor();
  const session = createCollectingSession({
    format: formatOf(format, source, io),
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

/** The file (null for standard input) opened by the importers, a small one read whole first (unless `io` reads through its own fs). */
export async function openInput(file: string, io: CliIo, harEntry?: readonly number[]): Promise<ImportedSource | null> {
  if (file !== '-') return openFile(file, io, harEntry);
  if (harEntry) throw notHar('- (standard input, read as an SSE capture)');
  return null;
}

/** A FILE operand other than `-`, opened by the importers as openInput opens it. */
export async function openFile(file: string, io: CliIo, harEntry?: readonly number[]): Promise<ImportedSource> {
  const path = resolve(io.cwd, file);
  const fs = io.fs ?? wholeSmallFile(path);
  const source = await openSource(path, { ...(fs ? { fs } : {}), ...(harEntry ? { harEntry } : {}) });
  if (harEntry && source.kind !== 'har') throw notHar(`${file} (${source.kind})`);
  return source;
}

/**
 * `--har-entry` for a file that is no HAR: the importers would ignore it, and the user believe
 * they had chosen a part of the file. Refused as other options that do not apply are (exit 2).
 */
function notHar(file: string): UsageError {
  return new UsageError(`--har-entry chooses among the entries of a HAR file, and ${file} is not one`);
}

/** `--format`, else the dialect the file says was chosen when it was written (a dialect of `io`), else detected. */
export function formatOf(format: FormatChoice | undefined, source: ImportedSource | null, io: CliIo): FormatChoice {
  const dialects = io.dialects ?? DIALECT_REGISTRY;
  return chosenFormat(format, source, (id): id is DialectId => dialects.get(id) !== undefined);
}

/**
 * Each leg's chunks and index in the file (none for standard input), with what its exchange
 * says where the bytes say nothing (a recording's or HAR entry's URL and response headers). A
 * leg whose response was no stream (an error page, a one-off JSON answer: `legIsStream`) has
 * no chunks to decode, as the app shows it undecoded: its end says why (`endOf`).
 */
export function legsOf(
  source: ImportedSource | null,
  io: CliIo,
): { chunks: AsyncIterable<ChunkInput> | Iterable<ChunkInput>; hints?: ExchangeHints; index?: number }[] {
  if (!source) return [{ chunks: stdinChunks(io) }];
  return source.legs.map((leg) => ({
    chunks: legIsStream(leg) ? leg.chunks : [],
    index: leg.index,
    hints: {
      ...(leg.request ? { url: leg.request.url } : {}),
      ...(leg.response ? { headers: leg.response.headers } : {}),
    },
  }));
}

/**
 * What the file says of how its session ended: its kind, how a recording's last leg ended (or
 * any file's, when its response was no stream: failed, as the connection would have said; or
 * as an export of this inspector says),
 * tool results sent for it.
 */
export function endOf(source: ImportedSource | null): Pick<DecodedFile, 'kind' | 'lastLegOutcome' | 'lastLegAnswered'> {
  const last = source?.legs.at(-1);
  const lastLeg = last?.index;
  const notStream =
    last?.response && !legIsStream(last)
      ? { reason: 'error' as const, message: rejectedResponseFailure(last.response, '', false).message }
      : null;
  return {
    kind: source?.kind ?? 'stdin',
    // A recording's leg without an end was cut; other files say how a leg ended only where this inspector wrote them (HAR, envelope export).
    lastLegOutcome: source?.kind === 'recording' ? last?.outcome : (notStream ?? last?.outcome ?? null),
    lastLegAnswered: source?.actions.some((a) => a.kind === 'tool-results' && a.leg === lastLeg) ?? false,
  };
}
