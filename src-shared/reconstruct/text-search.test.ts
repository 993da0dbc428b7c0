import { describe, expect, it } from 'vitest';
import { piecesMatching, type TextPiece } from './text-search';

const pieces = (...deltas: string[]): { text: string; pieces: TextPiece[] } => ({
  text: deltas.join(''),
  pieces: deltas.map((d, i) => ({ seq: 10 + i, length: d.length })),
});

describe('search over reassembled text', () => {
  it('regression: "Eiffel" arrived as "The E" + "iffel Tower…" and was not found — it lands on both envelopes', () => {
    const { text, pieces: list } = pieces('The E', 'iffel Tower is ', '330 m tall.');
    expect(piecesMatching(text, list, 'Eiffel')).toEqual([10, 11]);
    expect(piecesMatching(text, list, 'eiffel tower is 330')).toEqual([10, 11, 12]);
    expect(piecesMatching(text, list, 'tall')).toEqual([12]);
  });

  it('finds every occurrence, overlapping ones too, and skips empty envelopes', () => {
    const { text, pieces: list } = pieces('aa', '', 'a', 'b', 'aa');
    expect(piecesMatching(text, list, 'aa')).toEqual([10, 12, 14]);
    expect(piecesMatching(text, list, 'x')).toEqual([]);
    expect(piecesMatching(text, list, '')).toEqual([]);
  });

  it('ignores case, and keeps offsets right where lower-casing would change the length', () => {
    const { text, pieces: list } = pieces('Ä big E', 'IFFEL');
    expect(piecesMatching(text, list, 'eiffel')).toEqual([10, 11]);
    // "İ" lower-cases to two code units: searched with its exact case instead.
    const dotted = pieces('İstanbul ', 'Eif', 'fel');
    expect(piecesMatching(dotted.text, dotted.pieces, 'Eiffel')).toEqual([11, 12]);
  });

  it('finds nothing when the pieces are not the text (a block built otherwise)', () => {
    expect(piecesMatching('The Eiffel', [{ seq: 1, length: 3 }], 'Eiffel')).toEqual([]);
  });
});
