import { openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src-shared/testing/chunking';
import { UintColumn } from './columns';
import { createRawChunks } from './raw-chunks';
import { SpoolFile, SpoolWriteError } from './spool-file';

/** Byte equality without a deep comparison's cost on large arrays. */
const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);

describe('spool file', () => {
  it('reads back any byte range, whether it is on disk, still buffered, or both', () => {
    const random = seededRandom(42);
    const spool = new SpoolFile();
    const parts: Uint8Array[] = [];
    let total = 0;
    // Small appends, and some larger than the write buffer, past several flushes.
    for (let i = 0; i < 400; i++) {
      const size = i % 97 === 0 ? 300_000 : Math.floor(random() * 9000);
      const part = new Uint8Array(size).map((_, j) => (total + j) % 251);
      expect(spool.append(part)).toBe(total);
      parts.push(part);
      total += size;
    }
    expect(spool.length).toBe(total);
    const all = new Uint8Array(total);
    let at = 0;
    for (const part of parts) {
      all.set(part, at);
      at += part.length;
    }
    for (let i = 0; i < 300; i++) {
      const start = Math.floor(random() * total);
      const end = Math.min(total, start + Math.floor(random() * (i % 10 === 0 ? 200_000 : 3000)));
      expect(same(spool.read(start, end), all.subarray(start, end))).toBe(true);
    }
    // The buffered tail, and a range from disk into it.
    expect(same(spool.read(total - 10, total + 50), all.subarray(total - 10))).toBe(true);
    expect(same(spool.read(total - 400_000, total), all.subarray(total - 400_000))).toBe(true);
    spool.close();
  });

  it('keeps text as UTF-8: multi-byte characters, empty and long texts read back as written', () => {
    const spool = new SpoolFile();
    const texts = ['héllo ', '世界', '🙂', '', 'x'.repeat(100_000), 'tail'];
    const ranges = texts.map((text) => {
      const start = spool.length;
      return [start, start + spool.appendText(text)] as const;
    });
    texts.forEach((text, i) => expect(spool.readText(...(ranges[i] as readonly [number, number]))).toBe(text));
    spool.close();
  });

  it('a write that fails (a full disk) says what and why, and loses nothing already appended', () => {
    // /dev/full takes no byte: every write fails with ENOSPC.
    const spool = new SpoolFile('raw bytes', () => ({ fd: openSync('/dev/full', 'r+'), path: null }));
    const raw = createRawChunks(spool);
    const first = new Uint8Array(40_000).fill(7);
    raw.append(first, 1);
    let error: unknown;
    try {
      raw.append(new Uint8Array(40_000).fill(9), 2);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SpoolWriteError);
    expect(error).toMatchObject({
      code: 'ENOSPC',
      message: expect.stringMatching(
        /^Writing the session's raw bytes to disk failed: ENOSPC: no space left on device/,
      ) as unknown,
    });
    // The chunk that could not be stored is not indexed; the one before reads back whole.
    expect([raw.count, raw.bytes]).toEqual([1, first.length]);
    expect(same(raw.slice(0, first.length), first)).toBe(true);
    expect(raw.chunk(0)?.receivedAt).toBe(1);
    spool.close();
  });

  it('refuses reads once closed, instead of reading another file', () => {
    const spool = new SpoolFile();
    spool.append(new Uint8Array(300_000));
    spool.close();
    expect(() => spool.read(0, 10)).toThrow(/closed/);
  });
});

describe('UintColumn', () => {
  it('widens from one byte to eight as values grow, keeping every earlier value', () => {
    const column = new UintColumn(4);
    const values = [0, 200, 70_000, 5_000_000_000, 3, 255, 65_536];
    values.forEach((value, i) => column.set(i * 3, value));
    values.forEach((value, i) => expect(column.get(i * 3)).toBe(value));
    expect(column.byteLength).toBeGreaterThanOrEqual(8 * 19);
    expect(() => column.set(0, -1)).toThrow(/non-negative/);
    const small = new UintColumn(8);
    small.set(7, 255);
    expect(small.byteLength).toBe(8);
  });
});
