import { createCollectingSession, type ChunkInput } from '../../src-shared/pipeline/session-decoder';
import type { InlineOptions } from '../../src-shared/inline/types';
import type { DecodeResult, FormatChoice } from '../../src-shared/pipeline/types';
import type { LegOutcome } from '../../src-shared/recording/types';
import { resolve } from 'node:path';
import { openSource } from '../services/importers';
import type { CliIo } from './io';
import { readChunks } from './input';

export interface DecodedFile extends DecodeResult {
  /** What the file was recognised as ('stdin' for standard input, read as an SSE capture). */
  kind: string;
  /** How the last leg ended, for a recording (undefined when it stops inside the leg, null for other files). */
  lastLegOutcome: LegOutcome | undefined | null;
  /** When the first request was sent, on the clock of the receive times (recordings). */
  startedAt?: number;
}

async function* stdinChunks(io: CliIo): AsyncGenerator<ChunkInput> {
  for await (const bytes of readChunks('-', io)) yield { bytes };
}

/**
 * Opens FILE with the importers (recordings, SSE captures, NDJSON/JSON of envelopes or
 * Anthropic events, HAR) and decodes every leg with the shared decoder, streaming the file.
 */
export async function decodeFile(file: string, format: FormatChoice, io: CliIo, inline?: InlineOptions): Promise<DecodedFile> {
  const source = file === '-' ? null : await openSource(resolve(io.cwd, file));
  const session = createCollectingSession({ format, ...(io.dialects ? { dialects: io.dialects } : {}), ...(inline ? { inline } : {}) });
  for (const chunks of source ? source.legs.map((leg) => leg.chunks) : [stdinChunks(io)]) await session.decodeLegAsync(chunks);
  const result = session.finish();
  // Findings about the file itself (a torn recording, skipped items) come first.
  const lastLegOutcome = source?.kind === 'recording' ? source.legs.at(-1)?.outcome : null;
  const startedAt = source?.legs[0]?.startedAt;
  return {
    ...result,
    kind: source?.kind ?? 'stdin',
    lastLegOutcome,
    diagnostics: [...(source?.diagnostics ?? []), ...result.diagnostics],
    ...(startedAt !== undefined ? { startedAt } : {}),
  };
}
