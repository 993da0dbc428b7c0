import { describe, expect, test } from 'vitest';
import type { Envelope } from '../envelope/types';
import { addCitation, addEnvelope, addImage, createBlock, NO_CITATIONS, NO_IMAGES } from './new-block';

function envelope(
  seq: number,
  leg: number,
  byteStart: number,
  byteEnd: number,
  extras: Record<string, unknown> = {},
): Envelope {
  return {
    frame: seq,
    agent: 'a',
    type: 'tool_call',
    final: false,
    delta: '',
    extras,
    seq,
    leg,
    dialect: 'json',
    byteStart,
    byteEnd,
    receivedAt: 0,
  };
}

describe('a new block and the envelopes it is built from', () => {
  test('a block starts open and empty at its envelope, with the tool id and name the envelope carries', () => {
    const block = createBlock(2, envelope(5, 1, 30, 40, { id: 't1', name: 'read', other: 'x' }), 'tool_call');
    expect(block).toEqual({
      id: 2,
      agent: 'a',
      kind: 'tool_call',
      status: 'open',
      content: '',
      citations: [],
      images: [],
      envelopes: [],
      leg: 1,
      byteStart: 30,
      byteEnd: 40,
      toolId: 't1',
      name: 'read',
    });
    expect(Object.keys(createBlock(0, envelope(0, 0, 0, 1, { id: 7 }), 'text'))).not.toContain('toolId');
  });

  test('envelopes of the block leg widen its span; those of another leg are listed but do not', () => {
    const block = createBlock(0, envelope(0, 0, 30, 40), 'text');
    addEnvelope(block, envelope(1, 0, 40, 55));
    addEnvelope(block, envelope(2, 1, 0, 999));
    addEnvelope(block, envelope(3, 0, 20, 25));
    expect(block.envelopes).toEqual([1, 2, 3]);
    expect([block.byteStart, block.byteEnd]).toEqual([20, 55]);
  });

  test('blocks without citations or images share one frozen empty list; the first attached gives the block its own', () => {
    const plain = createBlock(0, envelope(0, 0, 0, 1), 'text');
    const cited = createBlock(1, envelope(1, 0, 1, 2), 'text');
    expect(plain.citations).toBe(cited.citations);
    expect(plain.images).toBe(cited.images);
    expect(Object.isFrozen(plain.citations) && Object.isFrozen(plain.images)).toBe(true);
    const citation = { citationType: 'page_location', citedText: 'x', fields: {}, envelope: 2 };
    addCitation(cited, citation);
    addCitation(cited, { ...citation, envelope: 3 });
    addImage(cited, { src: 's', mediaType: 'image/png', envelope: 4 });
    expect(cited.citations.map((c) => c.envelope)).toEqual([2, 3]);
    expect(cited.images).toHaveLength(1);
    expect(plain.citations).toBe(NO_CITATIONS);
    expect(plain.images).toBe(NO_IMAGES);
    expect(NO_CITATIONS).toHaveLength(0);
  });
});
