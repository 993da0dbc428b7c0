import { createCollectingSession, type ChunkInput } from '../../src-shared/pipeline/session-decoder';
import type { InlineOptions } from '../../src-shared/inline/types';
import type { DecodeResult, FormatChoice } from '../../src-shared/pipeline/types';
import { resolve } from 'node:path';
import { openSource } from '../services/importers';
import type { CliIo } from './io';
import { readChunks } from './input';

export interface DecodedFile extends DecodeResult {
  /** What the file was recognised as ('stdin' for standard input, read as an SSE capture). */
  kind: string;
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
  return { ...result, kind: source?.kind ?? 'stdin', diagnostics: [...(source?.diagnostics ?? []), ...result.diagnostics] };
}
