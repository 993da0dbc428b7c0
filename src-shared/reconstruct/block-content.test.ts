import { describe, expect, test } from 'vitest';
import {
  appendContent,
  assignContent,
  moveContent,
  readContent,
  withContent,
  type ContentSource,
} from './block-content';
import type { Block } from './types';

const block = (): Block =>
  Object.assign(withContent({ id: 3, agent: 'a', kind: 'text', status: 'complete' as const }), {
    citations: [],
    images: [],
    envelopes: [1, 2],
    leg: 0,
    byteStart: 0,
    byteEnd: 9,
  });

function source(): ContentSource & { reads: number; forgotten: number[] } {
  return {
    reads: 0,
    forgotten: [],
    read(b) {
      this.reads++;
      return `stored ${b.id}`;
    },
    forget(b) {
      this.forgotten.push(b.id);
    },
  };
}

describe('block content held by the block or by a source', () => {
  test('content reads and appends like a plain field, in the same place among the fields', () => {
    const b = block();
    b.content += 'hello ';
    b.content += 'world';
    expect(b.content).toBe('hello world');
    expect(Object.keys(b)).toEqual([
      'id',
      'agent',
      'kind',
      'status',
      'content',
      'citations',
      'images',
      'envelopes',
      'leg',
      'byteStart',
      'byteEnd',
    ]);
    expect(JSON.parse(JSON.stringify(b))).toEqual({
      id: 3,
      agent: 'a',
      kind: 'text',
      status: 'complete',
      content: 'hello world',
      citations: [],
      images: [],
      envelopes: [1, 2],
      leg: 0,
      byteStart: 0,
      byteEnd: 9,
    });
    expect({ ...b }.content).toBe('hello world');
  });

  test('a moved content is read from its source; assigning it again holds it in the block and tells the source', () => {
    const b = block();
    b.content = 'in memory';
    const s = source();
    expect(moveContent(b, s)).toBe(true);
    expect(b.content).toBe('stored 3');
    expect(structuredClone(b).content).toBe('stored 3');
    expect(s.reads).toBe(2);
    b.content = 'again';
    expect(s.forgotten).toEqual([3]);
    expect(b.content).toBe('again');
    expect(s.reads).toBe(2);
  });

  test('a block not made with withContent keeps its content', () => {
    const plain = { ...block(), content: 'kept' };
    expect(moveContent(plain, source())).toBe(false);
    expect(plain.content).toBe('kept');
  });

  test('appendContent appends to held content, to moved content (through its source) and to a plain block', () => {
    const held = block();
    appendContent(held, 'hello ');
    appendContent(held, 'world');
    expect(held.content).toBe('hello world');
    const moved = block();
    const s = source();
    moveContent(moved, s);
    appendContent(moved, ' more');
    expect(s.forgotten).toEqual([3]);
    expect(moved.content).toBe('stored 3 more');
    const plain = { ...block(), content: 'kept' };
    appendContent(plain, '!');
    expect(plain.content).toBe('kept!');
  });

  test('readContent and assignContent act as the field does: held, moved (through its source) and plain', () => {
    const held = block();
    assignContent(held, 'held');
    expect([readContent(held), held.content]).toEqual(['held', 'held']);
    const moved = block();
    const s = source();
    moveContent(moved, s);
    expect(readContent(moved)).toBe('stored 3');
    expect(s.reads).toBe(1);
    assignContent(moved, 'back');
    expect(s.forgotten).toEqual([3]);
    expect([readContent(moved), moved.content, s.reads]).toEqual(['back', 'back', 1]);
    const plain = { ...block(), content: 'kept' };
    assignContent(plain, 'new');
    expect(readContent(plain)).toBe('new');
  });
});
