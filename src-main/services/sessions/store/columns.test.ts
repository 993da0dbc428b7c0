import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../../src-shared/sse/types';
import { NearColumn, RunColumn, TimeColumn } from './columns';
import { FrameTable } from './envelope-table';

/** A deterministic pseudo-random sequence (no seed library needed). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('NearColumn', () => {
  it('gives back every value, set in any order, smaller than its run base or far from it, and -1 where unset', () => {
    const next = random(7);
    const column = new NearColumn();
    const expected = new Map<number, number>();
    for (let i = 0; i < 5000; i++) {
      const index = Math.floor(next() * 3000);
      // Mostly close to the index (offsets, sequence numbers), sometimes far either way.
      const value = next() < 0.9 ? index * 3 + Math.floor(next() * 40) : Math.floor(next() * 2 ** 40);
      column.set(index, value);
      expected.set(index, value);
    }
    for (let index = 0; index < 3100; index++) expect(column.get(index)).toBe(expected.get(index) ?? -1);
  });

  it('takes a byte per item for values close to their neighbours, whatever their size', () => {
    const column = new NearColumn();
    for (let i = 0; i < 10_000; i++) column.set(i, 2 ** 40 + i * 3);
    column.trim(10_000);
    expect(column.byteLength).toBeLessThan(10_000 * 1.2);
  });

  it('refuses what is not a non-negative integer', () => {
    const column = new NearColumn();
    expect(() => column.set(0, -1)).toThrow(/non-negative/);
    expect(() => column.set(0, 1.5)).toThrow(/non-negative/);
  });
});

describe('TimeColumn', () => {
  it('keeps whole milliseconds near, and every time exactly once one is not whole or negative', () => {
    const column = new TimeColumn();
    const times = [1_700_000_000_000, 1_700_000_000_003, 1_700_000_090_000, 5];
    times.forEach((t, i) => column.set(i, t));
    expect(times.map((_, i) => column.get(i))).toEqual(times);
    const more = [12.25, -3, 1e300];
    more.forEach((t, i) => column.set(times.length + i, t));
    expect([...times, ...more].map((_, i) => column.get(i))).toEqual([...times, ...more]);
  });
});

describe('RunColumn', () => {
  it('gives back each item its run value, and 0 past the end', () => {
    const column = new RunColumn();
    const values = [0, 0, 0, 1, 1, 2, 0, 0, 5];
    for (const v of values) column.append(v);
    expect(values.map((_, i) => column.get(i))).toEqual(values);
    expect(column.get(values.length)).toBe(0);
  });
});

describe('FrameTable', () => {
  it('gives back where each frame is, when it arrived, its id and its first envelope', () => {
    const next = random(11);
    const table = new FrameTable();
    const frames: Frame[] = [];
    let byte = 0;
    let chunk = 0;
    let time = 1_700_000_000_000;
    for (let seq = 0; seq < 2000; seq++) {
      const length = 1 + Math.floor(next() * (next() < 0.05 ? 100_000 : 200));
      const chunkFirst = chunk;
      chunk += next() < 0.3 ? Math.floor(next() * 4) : 0;
      time += next() < 0.01 ? 120_000 : Math.floor(next() * 3);
      const frame: Frame = {
        seq,
        byteStart: byte,
        byteEnd: byte + length,
        chunkFirst,
        chunkLast: chunk,
        receivedAt: time,
        event: '',
        data: '',
        id: seq % 500 === 0 ? `id ${seq}` : '',
        dataLines: 1,
        maxDataLineBytes: length,
      };
      byte += length;
      frames.push(frame);
      table.add(frame);
      if (seq % 3 !== 0) table.noteEnvelope(seq, seq * 2);
    }
    for (const frame of frames) {
      const { seq, byteStart, byteEnd, chunkFirst, chunkLast, receivedAt, id } = frame;
      expect(table.get(seq)).toEqual({ seq, byteStart, byteEnd, chunkFirst, chunkLast, receivedAt, id });
      expect([table.byteStart(seq), table.byteEnd(seq), table.receivedAt(seq)]).toEqual([
        byteStart,
        byteEnd,
        receivedAt,
      ]);
      expect(table.firstEnvelope(seq)).toBe(seq % 3 !== 0 ? seq * 2 : -1);
    }
  });
});
