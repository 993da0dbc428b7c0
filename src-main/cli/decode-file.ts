import { createCollectingSession, type ChunkInput } from '../../src-shared/pipeline/session-decoder';
import type { InlineOptions } from '../../src-shared/inline/types';
import type { DecodeResult, FormatChoice } from '../../src-shared/pipeline/types';
import type { LegOutcome } from '../../src-shared/recording/types';
import { resolve } from 'node:path';
import { bytesSourceFs, openSource, type SourceFs } from '../services/importers';
import { readSmallRegularFileSync } from '../services/importers/regular-file';
import type { CliIo } from './io';
import { readChunks } from './input';

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
  inline?: InlineOptions,
): Promise<DecodedFile> {
  const path = file === '-' ? null : resolve(io.cwd, file);
  const fs = path === null ? undefined : wholeSmallFile(path);
  const source = path === null ? null : await openSource(path, fs ? { fs } : {});
  // No command prints chunk statistics: they are not computed.
  const session = createCollectingSession({
    format,
    statistics: false,
    ...(io.dialects ? { dialects: io.dialects } : {}),
    ...(inline ? { inline } : {}),
  });
  if (source)
    for (const leg of source.legs)
      // A recording's or HAR entry's URL and response headers are evidence where the bytes say nothing.
      await session.decodeLegAsync(leg.chunks, {
        ...(leg.request ? { url: leg.request.url } : {}),
        ...(leg.response ? { headers: leg.response.headers } : {}),
      });
  else await session.decodeLegAsync(stdinChunks(io));
  const result = session.finish();
  // Findings about the file itself (a torn recording, skipped items) come first.
  const lastLegOutcome = source?.kind === 'recording' ? source.legs.at(-1)?.outcome : null;
  const lastLeg = source?.legs.at(-1)?.index;
  const lastLegAnswered = source?.actions.some((a) => a.kind === 'tool-results' && a.leg === lastLeg) ?? false;
  const startedAt = source?.legs[0]?.startedAt;
  return {
    ...result,
    kind: source?.kind ?? 'stdin',
    lastLegOutcome,
    lastLegAnswered,
    diagnostics: [...(source?.diagnostics ?? []), ...result.diagnostics],
    ...(startedAt !== undefined ? { startedAt } : {}),
  };
}
