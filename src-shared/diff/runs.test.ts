import { describe, expect, it } from 'vitest';
import { rewriteStrings, runPairing, withoutThinkingSignatures } from './runs';

describe('runPairing', () => {
  it('maps each left uuid to its partner and replaces every occurrence', () => {
    const runs = runPairing([
      { left: 'root-1', right: 'root-2', by: 'structure' },
      { left: 'child-1', right: 'child-2', by: 'structure' },
    ]);
    expect(runs?.uuids).toEqual(
      new Map([
        ['root-1', 'root-2'],
        ['child-1', 'child-2'],
      ]),
    );
    expect(runs?.substitute('root-1 spawned child-1; child-1 answered root-1')).toBe(
      'root-2 spawned child-2; child-2 answered root-2',
    );
  });

  it('is null for one run in two formats: an agent uuid on both sides', () => {
    expect(
      runPairing([
        { left: 'a', right: 'a', by: 'uuid' },
        { left: 'b', right: 'c', by: 'order' },
      ]),
    ).toBeNull();
  });

  it('does not take the empty agent id (items without one) for a shared uuid, and never substitutes it', () => {
    const runs = runPairing([
      { left: '', right: '', by: 'uuid' },
      { left: 'r1', right: 'r2', by: 'structure' },
    ]);
    expect(runs?.uuids).toEqual(new Map([['r1', 'r2']]));
    expect(runPairing([{ left: '', right: 'r2', by: 'order' }])).toBeNull();
  });

  it('ignores unmatched agents', () => {
    expect(
      runPairing([
        { left: 'x', by: 'unmatched' },
        { right: 'y', by: 'unmatched' },
      ]),
    ).toBeNull();
  });

  it('replaces a uuid that contains another as a whole', () => {
    const runs = runPairing([
      { left: 'abc', right: 'X', by: 'structure' },
      { left: 'abc-def', right: 'Y', by: 'structure' },
    ]);
    expect(runs?.substitute('abc-def abc')).toBe('Y X');
  });

  it('reads uuids literally, not as patterns', () => {
    const runs = runPairing([{ left: 'a.c', right: 'Z', by: 'structure' }]);
    expect(runs?.substitute('abc a.c')).toBe('abc Z');
  });
});

describe('rewriteStrings', () => {
  it('rewrites strings at any depth, object keys included, and leaves other values', () => {
    const value = { a: ['x1', { x1: 'x1', n: 1, b: true, z: null }] };
    expect(rewriteStrings(value, (s) => s.replaceAll('x1', 'y2'))).toEqual({
      a: ['y2', { y2: 'y2', n: 1, b: true, z: null }],
    });
  });
});

describe('withoutThinkingSignatures', () => {
  it('drops the signature of thinking blocks only, and returns the dropped ones in order', () => {
    const history = [
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'a', signature: 's1' },
          { type: 'text', text: 'hi', signature: 'kept' },
        ],
      },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'b', signature: 's2' }] },
    ];
    const { value, signatures } = withoutThinkingSignatures({ conversation_history: history });
    expect(signatures).toEqual(['s1', 's2']);
    expect(value).toEqual({
      conversation_history: [
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'a' },
            { type: 'text', text: 'hi', signature: 'kept' },
          ],
        },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'b' }] },
      ],
    });
  });
});
