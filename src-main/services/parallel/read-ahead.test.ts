import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../src-shared/json/tree';
import { concatBytes } from '../../../src-shared/bytes/held-bytes';
import { fuzzGrammar } from '../../../src-shared/dialects/json-envelope/fuzz';
import { createPreparedCursor } from '../../../src-shared/pipeline/prepared';
import { createCollectingSession, decodeLegs, type ChunkInput } from '../../../src-shared/pipeline/session-decoder';
import { seededRandom } from '../../../src-shared/sse/rechunk';
import { generateStreams } from '../../../src-shared/testing/fuzz-streams';
import { healthyEnvelopes } from '../../../src-shared/testing/healthy-envelopes';
import { runCli } from '../../cli/test-io';
import { PARALLEL_MIN_BYTES, parseWorkers } from '../../cli/workers-option';
import {
  FIXTURES_DIR,
  PROVIDER_FIXTURES_DIR,
  UNKNOWN_FIXTURES_DIR,
  EXTERNAL_FIXTURES_DIR,
} from '../../testing/fixtures';
import { readAhead } from './read-ahead';
import { createSpanPool } from './span-pool';

const pool = createSpanPool(2);
afterAll(() => pool.close());

function chunksOf(bytes: Uint8Array, size: number): ChunkInput[] {
  const chunks: ChunkInput[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push({ bytes: bytes.subarray(at, at + size), receivedAt: at });
  return chunks;
}

/** One leg decoded with its spans read on the pool's threads, as the CLI decodes a large file. */
async function withThreads(chunks: ChunkInput[], spanBytes: number) {
  const cursor = createPreparedCursor();
  let taken = 0;
  const session = createCollectingSession({
    prepared: {
      take(frame) {
        const fields = cursor.take(frame);
        if (fields) taken++;
        return fields;
      },
    },
  });
  await session.decodeLegAsync(readAhead(chunks, pool, cursor, { budget: 2048, spanBytes }));
  return { result: session.finish(), taken };
}

function everyFixture(): string[] {
  return [FIXTURES_DIR, PROVIDER_FIXTURES_DIR, UNKNOWN_FIXTURES_DIR, EXTERNAL_FIXTURES_DIR].flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.sse'))
      .sort()
      .map((name) => join(dir, name)),
  );
}

describe('decoding with threads reading spans ahead gives the one-thread decode', () => {
  it('on every fixture, in small spans', async () => {
    for (const path of everyFixture()) {
      const chunks = chunksOf(new Uint8Array(readFileSync(path)), 500);
      const { result } = await withThreads(chunks, 700);
      expect(result, path).toEqual(decodeLegs([chunks]));
    }
  });

  it('on a generated stream of healthy and broken envelopes, most of them read by the threads', async () => {
    const random = seededRandom(2626);
    const parts: Uint8Array[] = [];
    for (let i = 0; i < 8; i++)
      parts.push(healthyEnvelopes(random, 100_000), generateStreams(fuzzGrammar, random, 10_000));
    const chunks = chunksOf(concatBytes(parts), 4093);
    const alone = decodeLegs([chunks]);
    const { result, taken } = await withThreads(chunks, 64 * 1024);
    expect(taken).toBeGreaterThan(alone.envelopes.length / 2);
    expect(result.diagnostics).toEqual(alone.diagnostics);
    // As text, written without recursion: the fuzz streams' extras nest thousands deep.
    expect(stringifyJson(result.envelopes)).toBe(stringifyJson(alone.envelopes));
    expect(stringifyJson(result)).toBe(stringifyJson(alone));
  });
});

describe('inspect --workers', () => {
  it('reports a large file the same with two threads as with one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'si-workers-'));
    try {
      const file = join(dir, 'large.sse');
      await writeFile(file, healthyEnvelopes(seededRandom(7), PARALLEL_MIN_BYTES + 1024));
      const one = await runCli(['inspect', '--json', '--workers', '1', file]);
      const two = await runCli(['inspect', '--json', '--workers', '2', file]);
      expect(two.code).toBe(one.code);
      expect(two.out).toBe(one.out);
      expect((JSON.parse(one.out) as { envelopes: number }).envelopes).toBeGreaterThan(70_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('is one thread unless asked for more, and one per core with cores', () => {
    expect(parseWorkers(undefined)).toBe(1);
    expect(parseWorkers('3')).toBe(3);
    expect(parseWorkers('cores')).toBe(Math.max(1, availableParallelism()));
  });

  it('takes at least one thread', async () => {
    const { code, err } = await runCli(['inspect', '--workers', '0', 'x.sse']);
    expect(code).toBe(2);
    expect(err).toContain('--workers takes a number of threads, at least 1');
  });
});
