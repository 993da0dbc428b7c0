import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retainedHeap } from '../../testing/memory';
import { openSource } from './index';

/**
 * Files stream in: a JSON array far larger than the memory bound is imported with the heap
 * staying flat. The bound is well below the file size, so reading the file into one string
 * (or keeping its items) would fail the test.
 */

const FILE_BYTES = 96 * 1024 * 1024;
const HEAP_BOUND = 40 * 1024 * 1024;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'importers-large-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a pretty-printed JSON array of envelopes of about `bytes` bytes; returns the item count. */
async function writeLargeArray(path: string, bytes: number): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  let count = 0;
  out.write('[\n');
  while (written < bytes) {
    let block = '';
    for (let i = 0; i < 1000; i++, count++) {
      block += `${count === 0 ? '' : ',\n'}  {\n    "type": "text",\n    "agent": "11111111-1111-4111-8111-111111111111",\n    "final": false,\n    "delta": "item ${count}: é€😀 \\"quoted\\" ${'lorem ipsum '.repeat(count % 16)}"\n  }`;
    }
    written += Buffer.byteLength(block);
    if (!out.write(block)) await once(out, 'drain');
  }
  out.end('\n]\n');
  await once(out, 'finish');
  return count;
}

describe('importing a large JSON array', () => {
  it(`streams a ${FILE_BYTES / 1024 / 1024} MiB file with retained memory growing less than ${HEAP_BOUND / 1024 / 1024} MiB`, async () => {
    const path = join(dir, 'large.json');
    const count = await writeLargeArray(path, FILE_BYTES);
    const source = await openSource(path);
    expect(source.kind).toBe('json-envelopes');

    const baseline = retainedHeap();
    let peak = 0;
    let chunks = 0;
    let bytes = 0;
    let last = '';
    for await (const chunk of source.legs[0]?.chunks ?? []) {
      chunks++;
      bytes += chunk.bytes.length;
      if (chunks % 50_000 === 0) peak = Math.max(peak, retainedHeap() - baseline);
      if (chunks === count) last = Buffer.from(chunk.bytes).toString();
    }
    expect(chunks).toBe(count);
    expect(bytes).toBeGreaterThan(FILE_BYTES * 0.6);
    expect(last).toContain(`"delta":"item ${count - 1}: é€😀 \\"quoted\\"`);
    expect(source.diagnostics).toEqual([]);
    expect(peak).toBeLessThan(HEAP_BOUND);
  });
});
