import { describe, expect, test } from 'vitest';
import type { Envelope } from '../envelope/types';
import { createBlock } from './new-block';
import { parseOnRead } from './parse-on-read';

const envelope: Envelope = {
  frame: 0,
  agent: 'a',
  type: 'meta_init',
  final: true,
  delta: '',
  extras: {},
  seq: 0,
  leg: 0,
  dialect: 'json',
  byteStart: 0,
  byteEnd: 1,
  receivedAt: 0,
};

describe('block.parsed read from the content', () => {
  test('each read parses the content again; content that does not parse reads as undefined', () => {
    const block = createBlock(0, envelope, 'meta_init');
    block.content = '{"model":"m"}';
    parseOnRead(block);
    const first = block.parsed;
    expect(first).toEqual({ model: 'm' });
    expect(block.parsed).not.toBe(first);
    expect(JSON.parse(JSON.stringify(block))).toMatchObject({ parsed: { model: 'm' } });
    block.content = '{not json';
    expect(block.parsed).toBeUndefined();
  });

  test('assigning parsed stores the value as a plain field', () => {
    const block = createBlock(0, envelope, 'meta_init');
    block.content = '[1]';
    parseOnRead(block);
    const value = { set: true };
    block.parsed = value;
    expect(block.parsed).toBe(value);
    expect(Object.getOwnPropertyDescriptor(block, 'parsed')).toMatchObject({ value, writable: true, enumerable: true });
  });
});
