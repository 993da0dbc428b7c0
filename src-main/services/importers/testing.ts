import { decodeLegs } from '../../../src-shared/pipeline/session-decoder';
import type { DecodeResult } from '../../../src-shared/pipeline/types';
import type { ImportedChunk, ImportedSource } from './types';

/** Test helpers: read every leg of a source, and decode it with the shared decoder. */

export async function readLegs(source: ImportedSource): Promise<ImportedChunk[][]> {
  const legs: ImportedChunk[][] = [];
  for (const leg of source.legs) {
    const chunks: ImportedChunk[] = [];
    for await (const chunk of leg.chunks) chunks.push(chunk);
    legs.push(chunks);
  }
  return legs;
}

export function concatChunks(chunks: readonly ImportedChunk[]): Buffer {
  return Buffer.concat(chunks.map((c) => c.bytes));
}

export async function decodeSource(source: ImportedSource): Promise<DecodeResult> {
  return decodeLegs(await readLegs(source));
}

/** What two decodes must agree on: the reconstructed blocks' kinds, agents and content. */
export function blockSummary(result: DecodeResult): { agent: string; kind: string; content: string }[] {
  return result.blocks.map((b) => ({ agent: b.agent, kind: b.kind, content: b.content }));
}
