import { decodeLegs } from '../../src-shared/pipeline/session-decoder';
import type { DecodeResult, FormatChoice } from '../../src-shared/pipeline/types';
import type { CliIo } from './io';
import { readAllChunks } from './input';

/** Decodes one captured stream (one leg) with the shared decoder. */
export async function decodeFile(file: string, format: FormatChoice, io: CliIo): Promise<DecodeResult> {
  const chunks = await readAllChunks(file, io);
  return decodeLegs([chunks.map((bytes) => ({ bytes }))], { format });
}
