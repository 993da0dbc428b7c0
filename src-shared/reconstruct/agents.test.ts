import { describe, expect, test } from 'vitest';
import type { Envelope } from '../envelope/types';
import { createAgents, openBlockOf } from './agents';
import { createBlock } from './new-block';
import { HELD_IDLE_AGENTS } from './retention';
import type { AgentInfo } from './types';
import { pushEnvelope } from './envelope-list';

function envelope(agent: string, seq: number, leg = 0): Envelope {
  return {
    frame: seq,
    agent,
    type: 'text',
    final: false,
    delta: 'x',
    extras: {},
    seq,
    leg,
    dialect: 'json',
    byteStart: seq * 10,
    byteEnd: seq * 10 + 10,
    receivedAt: 0,
  };
}

function recorder() {
  const announced: AgentInfo[] = [];
  return { announced, onAgent: (agent: AgentInfo) => announced.push({ ...agent }) };
}

describe('agents of a session', () => {
  test('an agent is made and announced once, on its first envelope', () => {
    const { announced, onAgent } = recorder();
    const agents = createAgents('all', onAgent);
    const first = agents.stateOf(envelope('a', 3));
    expect(agents.stateOf(envelope('a', 4))).toBe(first);
    agents.stateOf(envelope('b', 5));
    expect(announced.map((a) => [a.uuid, a.firstEnvelope])).toEqual([
      ['a', 3],
      ['b', 5],
    ]);
    expect(agents.list().map((a) => a.uuid)).toEqual(['a', 'b']);
    expect(agents.seen).toBe(2);
  });

  test('meta_init fills parent, model, format and query, and is announced only when something changed', () => {
    const { announced, onAgent } = recorder();
    const agents = createAgents('all', onAgent);
    const state = agents.stateOf(envelope('sub', 0));
    const block = createBlock(0, envelope('sub', 0), 'meta_init');
    pushEnvelope(block, 0);
    const meta = { parent_agent_uuid: 'root', model: 'm', format: 'json', user_query: { q: 1 } };
    agents.applyMetaInit(state, block, meta);
    expect(state.info).toMatchObject({
      parent: 'root',
      model: 'm',
      format: 'json',
      userQuery: '{"q":1}',
      metaInitEnvelope: 0,
    });
    agents.applyMetaInit(state, block, meta);
    expect(announced).toHaveLength(2);
  });

  test('a parent of "unknown", empty or the agent itself is no parent; a non-object meta_init changes nothing', () => {
    const { announced, onAgent } = recorder();
    const agents = createAgents('all', onAgent);
    const state = agents.stateOf(envelope('a', 0));
    const block = createBlock(0, envelope('a', 0), 'meta_init');
    for (const parent of ['unknown', '', 'a']) agents.applyMetaInit(state, block, { parent_agent_uuid: parent });
    agents.applyMetaInit(state, block, ['not', 'an', 'object']);
    expect(state.info.parent).toBeNull();
    expect(announced).toHaveLength(1);
  });

  test('the root is the first agent seen without a parent, never the unattributed one, and is looked for again once it gets a parent', () => {
    const agents = createAgents('all', () => {});
    agents.stateOf(envelope('', 0));
    expect(agents.rootAgent()).toBeUndefined();
    const a = agents.stateOf(envelope('a', 1));
    expect(agents.rootAgent()).toBe('a');
    agents.stateOf(envelope('b', 2));
    agents.applyMetaInit(a, createBlock(0, envelope('a', 1), 'meta_init'), { parent_agent_uuid: 'b' });
    expect(agents.rootAgent()).toBe('b');
  });

  test('open retention lets the least recently active idle agent go, never the root nor one with an open block', () => {
    const agents = createAgents('open', () => {});
    const root = agents.stateOf(envelope('root', 0));
    expect(agents.rootAgent()).toBe('root');
    const busy = agents.stateOf(envelope('busy', 1));
    busy.open.set('text', { block: createBlock(0, envelope('busy', 1), 'text') });
    for (let i = 0; i < HELD_IDLE_AGENTS; i++) agents.stateOf(envelope(`idle-${i}`, 2 + i));
    const held = agents.list().map((a) => a.uuid);
    expect(held).toHaveLength(HELD_IDLE_AGENTS);
    expect(held).toContain('root');
    expect(held).toContain('busy');
    expect(held).not.toContain('idle-0');
    expect(agents.seen).toBe(HELD_IDLE_AGENTS + 2);
    expect(agents.stateOf(envelope('root', 9999))).toBe(root);
  });
});

describe('the idle agents let go in open retention', () => {
  test('are the least recently active, counting activity from before the limit was reached', () => {
    const agents = createAgents('open', () => {});
    let seq = 0;
    // The root (the first agent) is never let go; the others are a-0 … a-1022.
    agents.stateOf(envelope('root', seq++));
    for (let i = 0; i < HELD_IDLE_AGENTS - 1; i++) agents.stateOf(envelope(`a-${i}`, seq++));
    // a-0 speaks again (after a-1022): it is now more recent than a-1.
    agents.stateOf(envelope('a-0', seq++));
    agents.stateOf(envelope('new-1', seq++));
    let held = agents.list().map((a) => a.uuid);
    expect(held).toHaveLength(HELD_IDLE_AGENTS);
    expect(held).toContain('a-0');
    expect(held).not.toContain('a-1');
    // Past the limit: a-2 speaks, then a new agent comes: a-3 goes, not a-2.
    agents.stateOf(envelope('a-2', seq++));
    agents.stateOf(envelope('new-2', seq++));
    held = agents.list().map((a) => a.uuid);
    expect(held).toContain('a-2');
    expect(held).not.toContain('a-3');
    expect(held.slice(-2)).toEqual(['new-1', 'new-2']);
    expect(agents.seen).toBe(HELD_IDLE_AGENTS + 2);
  });
});

describe('openBlockOf', () => {
  test('a block left open by an earlier leg is dropped from the tracker, not continued', () => {
    const agents = createAgents('all', () => {});
    const state = agents.stateOf(envelope('a', 0));
    const open = { block: createBlock(0, envelope('a', 0, 0), 'text') };
    state.open.set('text', open);
    expect(openBlockOf(state, 'text', envelope('a', 1, 0))).toBe(open);
    expect(openBlockOf(state, 'text', envelope('a', 2, 1))).toBeUndefined();
    expect(state.open.has('text')).toBe(false);
    expect(open.block.status).toBe('open');
  });
});
