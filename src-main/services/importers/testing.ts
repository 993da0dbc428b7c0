import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { decodeLegs } from '../../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../testing/fixtures';
import { ImportError, openSource } from './index';
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

/** A temp folder for one test file's inputs, removed after it: `file` writes one, `dir` is the folder. */
export function tempFiles(): {
  dir: () => string;
  file: (name: string, content: string | Uint8Array) => Promise<string>;
} {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'importers-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    file: async (name, content) => {
      const path = join(dir, name);
      await writeFile(path, content);
      return path;
    },
  };
}

/** The data of every `data:` line of a fixture (all fixtures here are one data line per event). */
export const dataLines = (name: string): string[] =>
  Buffer.from(readFixture(name))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice('data: '.length));

export async function expectImportError(path: string, message: string | RegExp): Promise<ImportError> {
  const error = await openSource(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImportError);
  expect((error as ImportError).message).toMatch(message);
  return error as ImportError;
}
