import { describe, expect, test } from 'vitest';
import type { Envelope } from '../envelope/types';
import { agentLabel, blockAt, describeBlock, envelopeAt, replayAt, stringExtra } from './locations';
import { createBlock } from './new-block';
import { pushEnvelope } from './envelope-list';

function envelope(seq: number, leg: number, extras: Record<string, unknown> = {}): Envelope {
  return {
    frame: seq + 100,
    agent: 'a',
    type: 'tool_call',
    final: false,
    delta: '',
    extras,
    seq,
    leg,
    dialect: 'json',
    byteStart: 10,
    byteEnd: 20,
    receivedAt: 0,
  };
}

describe('how reconstruction names and places what it reports', () => {
  test('the unattributed agent is named as such; a block by kind, tool id, id and agent', () => {
    expect(agentLabel('')).toBe('the unattributed agent ""');
    expect(agentLabel('x')).toBe('agent x');
    expect(describeBlock(createBlock(4, envelope(0, 0, { id: 't9' }), 'tool_call'))).toBe(
      'tool_call t9 block #4 of agent a',
    );
    expect(describeBlock(createBlock(5, envelope(0, 0), 'text'))).toBe('text block #5 of agent a');
  });

  test('an envelope is placed by frame, seq and bytes; leg 0 and a missing block are left out', () => {
    expect(envelopeAt(envelope(3, 0))).toEqual({ frame: 103, envelope: 3, byteStart: 10, byteEnd: 20 });
    const block = createBlock(7, envelope(3, 2), 'text');
    expect(envelopeAt(envelope(3, 2), block)).toEqual({
      frame: 103,
      envelope: 3,
      byteStart: 10,
      byteEnd: 20,
      leg: 2,
      block: 7,
    });
  });

  test('a block is placed by its span and first envelope; a replay from its first replayed envelope to the confirming one', () => {
    const block = createBlock(7, envelope(3, 1), 'text');
    expect(blockAt(block)).toEqual({ byteStart: 10, byteEnd: 20, block: 7, leg: 1 });
    pushEnvelope(block, 3);
    pushEnvelope(block, 4);
    expect(blockAt(block)).toEqual({ byteStart: 10, byteEnd: 20, block: 7, leg: 1, envelope: 3 });
    expect(replayAt(block, 4, { ...envelope(9, 1), byteEnd: 90 })).toEqual({
      envelope: 4,
      byteStart: 10,
      byteEnd: 90,
      block: 7,
      leg: 1,
    });
  });

  test('only string extras are read', () => {
    const env = envelope(0, 0, { id: 't1', name: 42 });
    expect(stringExtra(env, 'id')).toBe('t1');
    expect(stringExtra(env, 'name')).toBeUndefined();
    expect(stringExtra(env, 'src')).toBeUndefined();
  });
});
