import { describe, expect, test } from 'vitest';
import { chunkingBudget } from '../../../src-shared/envelope/budget';
import { utf8ByteLength } from '../../../src-shared/text/utf8';
import { chunkEnvelopes, splitUtf8 } from './chunk-payload';

const AGENT = '11111111-1111-4111-8111-111111111111';

describe('splitUtf8 (the upstream _utf8_safe_split)', () => {
  test.each([
    ['ASCII', 'abcdefghij', 4, ['abcd', 'efgh', 'ij']],
    ['2-byte character on the cut backs up', 'aaaé', 4, ['aaa', 'é']],
    ['3-byte character on the cut backs up', 'ab€cd', 4, ['ab', '€c', 'd']],
    ['4-byte character (surrogate pair) never split', 'a😀b', 3, ['a', '😀', 'b']],
    ['exact fit', '€€', 3, ['€', '€']],
  ])('%s', (_name, text, max, pieces) => {
    expect(splitUtf8(text, max)).toEqual(pieces);
  });

  test('every piece is as long as the budget allows (the next character would not fit)', () => {
    const text = 'Région — 区域 😀 '.repeat(50);
    const pieces = splitUtf8(text, 64);
    expect(pieces.join('')).toBe(text);
    pieces.slice(0, -1).forEach((piece, i) => {
      const next = Array.from(pieces[i + 1] ?? '')[0] ?? '';
      expect(utf8ByteLength(piece)).toBeLessThanOrEqual(64);
      expect(utf8ByteLength(piece + next)).toBeGreaterThan(64);
    });
  });
});

describe('chunkEnvelopes (the upstream _chunk_and_emit)', () => {
  const shape = { type: 'tool_result', agent: AGENT, extras: { id: 'toolu_1', name: 'read' } };
  const { maxDeltaBytes } = chunkingBudget(shape);

  test('a payload that fits is one envelope carrying final', () => {
    expect(chunkEnvelopes(shape, 'ok', true)).toEqual([
      `{"type":"tool_result","agent":"${AGENT}","final":true,"delta":"ok","id":"toolu_1","name":"read"}`,
    ]);
  });

  test('a payload of exactly the budget is not split', () => {
    expect(chunkEnvelopes(shape, 'x'.repeat(maxDeltaBytes), true)).toHaveLength(1);
    expect(chunkEnvelopes(shape, 'x'.repeat(maxDeltaBytes + 1), true)).toHaveLength(2);
  });

  test('only the last chunk is final, and only when asked', () => {
    const payload = 'x'.repeat(maxDeltaBytes * 2 + 1);
    const finals = (final: boolean) =>
      chunkEnvelopes(shape, payload, final).map((e) => (JSON.parse(e) as { final: boolean }).final);
    expect(finals(true)).toEqual([false, false, true]);
    expect(finals(false)).toEqual([false, false, false]);
  });

  test('the budget counts unescaped bytes: escaping makes the envelope longer than 2048', () => {
    const envelopes = chunkEnvelopes(shape, '"'.repeat(3000), true);
    expect(utf8ByteLength(envelopes[0] ?? '')).toBeGreaterThan(2048);
    expect((JSON.parse(envelopes[0] ?? '{}') as { delta: string }).delta).toHaveLength(maxDeltaBytes);
  });

  test('the degenerate budget: extras over 1984 bytes leave 2048 bytes for the delta alone', () => {
    const big = { type: 'tool_result', agent: AGENT, extras: { id: 'x'.repeat(2000) } };
    expect(chunkingBudget(big).maxDeltaBytes).toBe(2048);
    expect(chunkEnvelopes(big, 'y'.repeat(4096), true)).toHaveLength(2);
  });
});
